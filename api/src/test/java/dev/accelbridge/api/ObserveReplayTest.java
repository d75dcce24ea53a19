package dev.accelbridge.api;

import dev.accelbridge.browser.observe.AppStep;
import dev.accelbridge.browser.observe.ObservedApp;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.BrowserSpec;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.run.Targets;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A session captured in Chromium, replayed on the other lanes as a case: the app's model and the inputs it fed run on wasm
 * in Firefox and in WebKit and natively on the CPU, each a row of the observation's own run whose input set names the
 * observed session's ("replay of " + its input set), judged against native as any case is.
 */
@RequiresBrowser({BrowserKind.CHROMIUM, BrowserKind.FIREFOX, BrowserKind.WEBKIT})
class ObserveReplayTest {
    @TempDir
    Path dir;

    @Test
    void aCapturedSessionIsReplayedOnFirefoxWebKitAndNativeEachARowLabelledAsAReplay() throws Exception {
        try (ObservedApp app = new ObservedApp(dir);
             AccelbridgeSession session = Accelbridge.create(SessionOptions.builder().optStore(dir.resolve("m.duckdb"))
                     .optOutDir(dir.resolve("out")).build())) {
            Targets elsewhere = Targets.builder().setBackends(List.of(BackendId.WASM, BackendId.CPU))
                    .optBrowserSpecs(List.of(BrowserSpec.of(BrowserKind.FIREFOX), BrowserSpec.of(BrowserKind.WEBKIT))).optParallel(1).build();
            ObservedRun run = session.observe(ObserveOptions.builder(URI.create(app.url("/"))).addStep(new AppStep.Click("#run:enabled"))
                    .optUntil("body[data-done]").optIdle(ObservedApp.DONE_IDLE).optTimeout(Duration.ofSeconds(60)).optReplay(elsewhere).build());
            RunResult observed = assertThat(run.results()).singleElement().actual();
            assertThat(observed.status()).isEqualTo(Status.PASSED);
            assertThat(run.replays()).as("wasm on Firefox, wasm on WebKit, native cpu").hasSize(3).allSatisfy(r -> {
                assertThat(r.runId()).isEqualTo(run.runId());
                assertThat(r.id().model()).isEqualTo(observed.id().model());
                assertThat(r.id().inputSet()).isEqualTo("replay of " + observed.id().inputSet());
                assertThat(r.status()).as("%s: %s", r.id(), r.reason()).isEqualTo(Status.PASSED);
            });
            assertThat(run.replays()).extracting(r -> r.id().lane().browser()).containsExactlyInAnyOrder(BrowserKind.FIREFOX,
                    BrowserKind.WEBKIT, null);
            assertThat(session.store().results(run.runId())).hasSize(4);
        }
    }
}
