package dev.accelbridge.run;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Settling;
import dev.accelbridge.core.MinDurations;
import dev.accelbridge.core.ModelFamily;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** A count the user sets is the count that runs; a conformance run defaults to what a verdict needs. */
class SamplingRuleTest {
    @Test
    void countsGivenAloneAreExact() {
        // found when tried: --warmups 0 -n 1 ran 189-1000 warm-ups and 222-1000 timed runs a case (the durations' defaults)
        Sampling s = new Sampling(0, 1, null, null).resolve(false);
        assertThat(s.durations()).isEqualTo(MinDurations.NONE);
        assertThat(s.durations().describe(s.warmups(), s.iterations())).isEqualTo("exactly 0 warm-ups; exactly 1 timed run");
        // one count given: that loop exact, the other keeps its default rule
        Sampling n = new Sampling(null, 1, null, null).resolve(false);
        assertThat(n.durations().timed()).isZero();
        assertThat(n.durations().warmup()).isEqualTo(PlanDefaults.WARMUP_DURATION);
        assertThat(n.warmups()).isEqualTo(3);
        // a count and a duration together: both, as asked
        Sampling both = new Sampling(0, 1, null, Duration.ofSeconds(2)).resolve(false);
        assertThat(both.durations().timed()).isEqualTo(Duration.ofSeconds(2));
        assertThat(both.durations().describe(both.warmups(), both.iterations()))
                .endsWith("at least 1 timed runs and 2 s (up to 1000 runs); on a latency floor, only until its runs show it (3 at least)");
    }

    @Test
    void onlyARunThatWarmsUpGetsSynchronousTierUpInItsBrowsers() {
        // a steady state is measured: figures independent of the place in the lane are worth the compile stalls
        assertThat(new Sampling(null, null, null, null).resolve(false).warmsUp()).isTrue();
        assertThat(BridgeBrowserLanes.engineArgs(RunPlan.builder().targets(t -> t.setBackends(List.of(BackendId.WASM))).build(),
                dev.accelbridge.core.BrowserKind.CHROMIUM)).isEmpty();
        assertThat(new Sampling(0, 1, Duration.ofMillis(500), Duration.ZERO).resolve(false).warmsUp()).as("a warm-up duration alone").isTrue();
        assertThat(new Sampling(0, 1, null, null).resolve(false).warmsUp()).as("--warmups 0 alone is exact").isFalse();
        // none: the browser's own tiering (found when tried: one-run odd models, a load job waited over 30 s behind the stalls)
        Sampling none = new Sampling(0, 1, Duration.ZERO, Duration.ZERO);
        assertThat(none.resolve(false).warmsUp()).isFalse();
        RunPlan noWarmUps = RunPlan.builder().targets(t -> t.setBackends(List.of(BackendId.WASM)))
                .sampling(x -> x.optWarmups(0).optIterations(1).optWarmupDuration(Duration.ZERO)).build();
        assertThat(BridgeBrowserLanes.engineArgs(noWarmUps, dev.accelbridge.core.BrowserKind.CHROMIUM_SHELL))
                .containsExactly("--js-flags=--no-wasm-sync-tier-up");
        // found when tried: MiniBrowser was given V8's flag, WebKitWebDriver refused it and every WebKit case FAILED after 74 s
        assertThat(BridgeBrowserLanes.engineArgs(noWarmUps, dev.accelbridge.core.BrowserKind.WEBKIT)).isEmpty();
        assertThat(BridgeBrowserLanes.engineArgs(noWarmUps, dev.accelbridge.core.BrowserKind.FIREFOX)).isEmpty();
        assertThat(new Sampling(null, null, null, null).resolve(true).warmsUp()).as("a conformance run").isFalse();
    }

    @Test
    void silenceGivesTheMeasuredDefaults() {
        Sampling s = new Sampling(null, null, null, null).resolve(false);
        assertThat(s.warmups()).isEqualTo(3);
        assertThat(s.iterations()).isEqualTo(10);
        assertThat(s.durations()).isEqualTo(new MinDurations(PlanDefaults.WARMUP_DURATION, PlanDefaults.MIN_DURATION));
        assertThat(s.durations().describe(3, 10)).startsWith("at least 3 warm-ups and 0.5 s, then until settled");
        // found when tried: "at most 10 s more", though the cap is on the warm-ups' whole time (Settling.CAP)
        assertThat(s.durations().describe(3, 10)).contains("(at most " + Settling.CAP.toSeconds() + " s of warm-ups in all)");
    }

    @Test
    void conformanceRunsDefaultToOneRun(@TempDir Path dir) throws Exception {
        assertThat(PlanDefaults.conformance(List.of(ModelFamily.OPS), List.of())).isTrue();
        assertThat(PlanDefaults.conformance(List.of(ModelFamily.OPS, ModelFamily.TEXT), List.of())).isFalse();
        // a folder of node-test folders, each with its model and its shipped test data
        for (String n : List.of("test_abs", "test_add")) {
            Path f = Files.createDirectories(dir.resolve("node").resolve(n));
            Files.write(f.resolve("model.onnx"), new byte[]{1});
            Files.createDirectories(f.resolve("test_data_set_0"));
        }
        assertThat(PlanDefaults.conformance(List.of(), List.of(dir.resolve("node")))).isTrue();
        // one model without test data makes it a performance run
        Path plain = Files.createDirectories(dir.resolve("node").resolve("test_mul"));
        Files.write(plain.resolve("model.onnx"), new byte[]{1});
        assertThat(PlanDefaults.conformance(List.of(), List.of(dir.resolve("node")))).isFalse();
        assertThat(PlanDefaults.conformance(List.of(), List.of(dir.resolve("missing")))).isFalse();
        Sampling c = new Sampling(null, null, null, null).resolve(true);
        assertThat(c.warmups()).isZero();
        assertThat(c.iterations()).isEqualTo(1);
        assertThat(c.durations()).isEqualTo(MinDurations.NONE);
        // told otherwise, a conformance run times as told
        assertThat(new Sampling(null, null, null, Duration.ofMillis(500)).resolve(true).durations().timed()).isEqualTo(Duration.ofMillis(500));
    }
}
