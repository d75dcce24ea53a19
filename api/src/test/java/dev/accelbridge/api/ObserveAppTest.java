package dev.accelbridge.api;

import dev.accelbridge.browser.observe.AppStep;
import dev.accelbridge.browser.observe.ObservedApp;
import dev.accelbridge.browser.observe.VisitReadings;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.ScenarioId;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.testing.Nightly;
import dev.accelbridge.reports.store.MatrixStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@link AccelbridgeSession#observe} on a real app (its own Javalin server, onnxruntime-web imported by the app): the visit
 * ends when the app is done or at its timeout, and every session becomes a row of the store in the scenario "observed in
 * an app", judged against native CPU; a page with none, one that leaves mid-run and one that never answers each end with
 * a clear row in bounded time.
 */
@RequiresBrowser
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ObserveAppTest {
    private ObservedApp app;
    private AccelbridgeSession session;

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        app = new ObservedApp(dir);
        session = Accelbridge.create(SessionOptions.builder().optStore(dir.resolve("m.duckdb")).optOutDir(dir.resolve("out")).build());
    }

    @AfterAll
    void stop() {
        session.close();
        app.close();
    }

    /** A visit at {@link ObservedApp#DONE_IDLE}; a visit without the end's mark whose page runs something gives itself a second. */
    private ObserveOptions.Builder at(String path) {
        return ObserveOptions.builder(URI.create(app.url(path))).optIdle(ObservedApp.DONE_IDLE).optTimeout(Duration.ofSeconds(40));
    }

    @Test
    void theAppsSessionIsARowOfTheStoreJudgedAgainstNative() {
        ObservedRun run = session.observe(at("/").addStep(new AppStep.Click("#run:enabled")).optUntil("body[data-done]").build());
        assertThat(run.timedOut()).isFalse();
        RunResult r = assertThat(run.results()).singleElement().actual();
        assertThat(r.status()).as("%s", r.reason()).isEqualTo(Status.PASSED);
        assertThat(r.id().scenario()).isEqualTo(ScenarioId.OBSERVED);
        assertThat(r.id().requested()).isEqualTo(BackendId.WASM);
        assertThat(r.id().modelSha256()).isEqualTo(app.model.sha256());
        assertThat(r.id().inputSet()).startsWith(app.url("/")).endsWith("· open");
        assertThat(r.provenance().runtimeVersions()).as("the flags the browser ran with").containsEntry("v8-flags", "--wasm-sync-tier-up");
        assertThat(r.id().lane().versions()).as("the release the app loaded, read from it").containsEntry("ortWebVersion",
                dev.accelbridge.browser.page.OrtWebBuild.pinned().version());
        assertThat(r.parity().orElseThrow().within()).isTrue();
        assertThat(r.warnings()).as("the URL its bytes came from, as the network layer showed them")
                .contains("its model came from " + app.url("/model.onnx") + " (its response's body hashes to its sha256)");
        assertThat(r.timings().orElseThrow().firstMs()).as("the app's own run, timed in the page").isPositive();
        assertThat(session.store().results(run.runId())).extracting(x -> x.id().scenario()).containsExactly(ScenarioId.OBSERVED);
    }

    @Test
    void oddValuesBesideASessionHideNothingAndNoFigureIsTheirs() {
        // found when tried: a worker started with {type: ['module']} or Date.now giving a Date refused the realm's whole
        // report, and its row said "the page made no onnxruntime-web session"; performance.now giving 1e300 once stored a
        // load of -1e300 ms; a digest that never settled ended the visit as "no session"
        ObservedRun run = session.observe(at("/odd").addStep(new AppStep.Click("#run:enabled")).optUntil("body[data-done]").build());
        assertThat(run.sessions()).singleElement().satisfies(r -> {
            assertThat(r.status()).as("%s", r.reason()).isEqualTo(Status.PASSED);
            assertThat(r.id().modelSha256()).isEqualTo(app.model.sha256());
            assertThat(r.timings().orElseThrow().loadMs()).as("the observer's own clock").isBetween(0.0, 60_000.0);
        });
        assertThat(run.unseen()).as("the worker the page started was entered").isEmpty();
    }

    @Test
    void theBytesJudgedAreTheBytesOnnxruntimeWebWasGivenWhateverThePageSaves() {
        // found when tried: a page that replaced HTMLAnchorElement.prototype.click had another model of the same length
        // saved in place of the one onnxruntime-web ran, and the row named that one, WRONG_OUTPUT
        ObservedRun run = session.observe(at("/clicker").addStep(new AppStep.Click("#run:enabled")).optUntil("body[data-done]").build());
        RunResult r = assertThat(run.sessions()).singleElement().actual();
        assertThat(r.id().modelSha256()).isEqualTo(app.model.sha256());
        assertThat(r.status()).as("%s", r.reason()).isEqualTo(Status.PASSED);
    }

    @Test
    void thePagesOwnDownloadsAreRefusedAndSaid() {
        // found when tried: the browser observe drives accepted every download the page made (1.86 GB in a 20 s visit
        // under --keep 1M)
        ObservedRun run = session.observe(at("/downloader").addStep(new AppStep.Click("#run:enabled")).optUntil("body[data-done]").build());
        assertThat(run.sessions()).singleElement().satisfies(r -> assertThat(r.status()).as("%s", r.reason()).isEqualTo(Status.PASSED));
        assertThat(run.notes()).anyMatch(n -> n.startsWith("the page's own downloads were refused ("));
    }

    @Test
    void realmsAreCountedByTheVisitNotByEachDocument() {
        // found when tried: 64 sessions then location.reload() gave 2,304 rows in 118 s and a 6.55 GB JVM under --timeout 20:
        // the observer's bounds held per document, and a page makes as many documents as it likes; here 70 frames, each
        // with its own observer
        ObservedRun frames = session.observe(at("/frames").optIdle(Duration.ofSeconds(1)).build());
        assertThat(frames.notes()).anyMatch(n -> n.contains("than the " + VisitReadings.MAX_REALMS + " a visit keeps"));
    }

    @Test
    void aRunWhoseInputIsOverOneMebibyteIsJudgedFromDiskAndReplayed() {
        ObservedRun run = session.observe(at("/over").addStep(new AppStep.Click("#run:enabled")).optUntil("body[data-done]")
                .optReplay(dev.accelbridge.run.Targets.builder().setBackends(List.of(BackendId.CPU)).build()).build());
        RunResult r = assertThat(run.results()).singleElement().actual();
        assertThat(r.status()).as("%s", r.reason()).isEqualTo(Status.PASSED);
        assertThat(r.id().inputShapes()).endsWith("=70000x4");
        assertThat(r.parity().orElseThrow().within()).isTrue();
        assertThat(run.replays()).as("its 1.07 MiB input replayed natively").singleElement()
                .satisfies(x -> assertThat(x.status()).as("%s", x.reason()).isEqualTo(Status.PASSED));
    }

    @Test
    void aModelAWorkerFetchedIsNamedByItsURLToo() {
        ObservedRun run = session.observe(at("/threaded").addStep(new AppStep.Click("#run:enabled")).optUntil("body[data-done]").build());
        RunResult r = assertThat(run.results()).singleElement().actual();
        assertThat(r.id().inputSet()).contains("in a worker");
        assertThat(r.warnings()).contains("its model came from " + app.url("/model.onnx") + " (its response's body hashes to its sha256)");
    }

    @Test
    void aResponseOfTheModelsLengthAndOtherBytesNamesNoURL() {
        ObservedRun run = session.observe(at("/decoy").addStep(new AppStep.Click("#run:enabled")).optUntil("body[data-done]").build());
        RunResult r = assertThat(run.results()).singleElement().actual();
        assertThat(r.status()).as("%s", r.reason()).isEqualTo(Status.PASSED);
        assertThat(r.warnings()).as("the app made its bytes itself; a response of their length is not taken for them")
                .contains("its model's URL is not verified: no response verified to be its bytes: " + app.url("/decoy.bin") + " is other bytes");
    }

    @Test
    void aModelPastTheBudgetIsNotKeptAndItsRowSaysSo() {
        ObservedRun run = session.observe(at("/").addStep(new AppStep.Click("#run:enabled")).optUntil("body[data-done]").optKeep(100).build());
        RunResult r = assertThat(run.results()).singleElement().actual();
        assertThat(app.modelBytes.length).as("the app's model is past the budget").isGreaterThan(100);
        assertThat(r.status()).isEqualTo(Status.UNAVAILABLE);
        assertThat(r.reason()).isEqualTo("not judged: its model (" + app.modelBytes.length + " B) was not kept: the visit keeps at most "
                + "100 B of models on disk (--keep)");
        assertThat(r.id().modelSha256()).as("still named by its sha256").isEqualTo(app.model.sha256());
    }

    @Test
    void aPageWithoutASessionEndsWithOneClearRow() {
        long t0 = System.nanoTime();
        ObservedRun run = session.observe(at("/empty").build());
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(20));
        RunResult r = assertThat(run.results()).singleElement().actual();
        assertThat(r.status()).isEqualTo(Status.UNAVAILABLE);
        assertThat(r.reason()).contains("made no onnxruntime-web session").contains("then quiet for 0.5 s)");
        assertThat(run.sessions()).as("its one row is no session (found when tried: counted as 1 session)").isEmpty();
    }

    @Test
    @Nightly(guardedBy = "PageObserverTest#aHundredSessionsAreCountedPastTheBoundAndKeptWithin") // docs/testing.md#the-nightly-tier
    void aPageOfAHundredSessionsKeepsSixtyFourRowsAndCountsTheRest() {
        ObservedRun run = session.observe(at("/many").optUntil("body[data-done]").build());
        assertThat(run.results()).hasSize(64).allSatisfy(r -> {
            assertThat(r.status()).isEqualTo(Status.UNAVAILABLE);
            assertThat(r.reason()).contains("the page did not run it");
            assertThat(r.warnings()).anyMatch(w -> w.startsWith("36 more sessions of this document were counted"));
        });
    }

    @Test
    void aPageThatLeavesMidRunKeepsWhatItRanBeforeIt() {
        ObservedRun run = session.observe(at("/leave").addStep(new AppStep.Click("#run:enabled"))
                .addStep(new AppStep.Click("#leave")).optIdle(Duration.ofSeconds(1)).build());
        RunResult r = assertThat(run.results()).singleElement().actual();
        assertThat(r.status()).as("%s", r.reason()).isEqualTo(Status.PASSED);
        assertThat(run.timedOut()).as("%s", run.notes()).isFalse();
        assertThat(r.warnings()).anyMatch(w -> w.contains("the page left this document"));
    }

    @Test
    @Nightly(guardedBy = "ObserverLimitsTest#aTensorOverTheReportsBoundIsHeldAndWrittenToDiskWhole") // docs/testing.md#the-nightly-tier
    void aPageThatFeedsAGibibyteEndsWithAClearRowInBoundedTime() {
        long t0 = System.nanoTime();
        ObservedRun run = session.observe(at("/huge").addStep(new AppStep.Click("#run:enabled")).optUntil("body[data-done]").build());
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(60));
        RunResult r = assertThat(run.results()).singleElement().actual();
        // onnxruntime-web may run it or refuse it: either way the row says so, and no gibibyte is kept or judged
        assertThat(r.status()).as("%s", r.reason()).isIn(Status.UNAVAILABLE, Status.FAILED);
        assertThat(r.reason()).containsAnyOf("over the bound the observer keeps", "failed in the page");
    }

    @Test
    void aPageThatNeverAnswersIsClosedAtItsTimeout() {
        long t0 = System.nanoTime();
        ObservedRun run = session.observe(ObserveOptions.builder(URI.create(app.url("/busy"))).optIdle(Duration.ofSeconds(1))
                .optTimeout(Duration.ofSeconds(4)).build());
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).isLessThan(Duration.ofSeconds(30));
        assertThat(run.timedOut()).isTrue();
        assertThat(run.results()).singleElement().satisfies(r -> assertThat(r.status()).isEqualTo(Status.UNAVAILABLE));
    }
}
