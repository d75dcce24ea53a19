package dev.accelbridge.reports.render;

import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.SpeedStanding;
import dev.accelbridge.core.Timings;
import dev.accelbridge.reports.history.RegressionDetector;
import dev.accelbridge.reports.recommend.Recommendation;
import dev.accelbridge.reports.recommend.Recommender;
import dev.accelbridge.reports.score.Grade;
import dev.accelbridge.reports.score.Scorer;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.List;

import static dev.accelbridge.reports.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A software adapter's figure (SwiftShader, lavapipe: WebGPU run by the CPU) describes no user's device: it has its
 * verdict and is never ranked, recommended, scored as speed or compared as speed. Constructed results (fixtures, not
 * measurements shown to anyone).
 */
class SoftwareAdapterFiguresTest {
    private final HostInfo h = host("ci");
    @org.junit.jupiter.api.io.TempDir
    java.nio.file.Path dir;

    private RunResult swiftShader(String run, int at, double p50) {
        return passed(run, t(at), h, ModelFamily.TEXT, "bert", BackendId.WEBGPU, chromiumProv(h, true), new double[]{p50, p50, p50});
    }

    private RunResult wasm(String run, int at, double p50) {
        return passed(run, t(at), h, ModelFamily.TEXT, "bert", BackendId.WASM, chromiumProv(h, false), new double[]{p50, p50, p50});
    }

    private RunResult cpu(String run, int at, double p50) {
        return passed(run, t(at), h, ModelFamily.TEXT, "bert", BackendId.CPU, nativeProv(h), new double[]{p50, p50, p50});
    }

    /** Found when tried: recommend named webgpu on SwiftShader the fastest browser backend, a speed no user's device has. */
    @Test
    void aSoftwareAdapterIsNeverRecommendedHoweverFast() {
        List<Recommendation> recs = Recommender.recommend(List.of(cpu("r", 0, 2), wasm("r", 1, 4), swiftShader("r", 2, 1)), false);
        Recommendation web = recs.stream().filter(r -> "chromium".equals(r.target())).findFirst().orElseThrow();
        assertThat(web.best().backend()).isEqualTo("wasm");
        assertThat(web.runnerUp()).isNull();
    }

    @Test
    void itIsNeverRankedAndTheReportSaysWhyInOneLine() throws Exception {
        Matrix m;
        try (dev.accelbridge.reports.store.MatrixStore s = dev.accelbridge.reports.store.MatrixStore.open(dir.resolve("m.duckdb"))) {
            String run = s.beginRun(h, java.util.Map.of("accelbridge", "0.1.0"), "{}");
            List.of(cpu(run, 0, 2), wasm(run, 1, 4), swiftShader(run, 2, 1)).forEach(s::write);
            s.finishRun(run);
            m = MatrixBuilder.build(s, java.util.Optional.of(run), RegressionDetector.defaults());
        }
        Cell gpu = m.cells().stream().filter(c -> c.key().requested() == BackendId.WEBGPU).findFirst().orElseThrow();
        assertThat(gpu.ranked()).isFalse();
        assertThat(gpu.result().status().executed()).as("the verdict stands").isTrue();
        assertThat(m.cells().stream().filter(c -> c.key().requested() == BackendId.WASM).findFirst().orElseThrow().ranked()).isTrue();
        assertThat(Overview.softwareAdapter(m)).startsWith("1 cell(s) ran WebGPU on a software adapter")
                .contains("never ranked, recommended or compared as speed").doesNotContain("\n");
    }

    /** A software adapter far slower than native CPU is not "LOW, 15× slower": its speed is not the backend's. */
    @Test
    void itsSpeedNeverGradesIt() {
        var s = Scorer.score(swiftShader("r", 0, 30), 2.0);
        assertThat(s.grade()).isEqualTo(Grade.MEDIUM);
        assertThat(s.speedTerm()).isZero();
        assertThat(s.note()).contains("software adapter").doesNotContain("slower");
    }

    @Test
    void compareNeverCallsItsChangeSignificant() {
        Comparison c = Comparison.of(Comparison.By.RUN, "r1", "r2", List.of(swiftShader("r1", 0, 10)), List.of(swiftShader("r2", 5, 30)));
        Comparison.Row row = c.rows().get(0);
        assertThat(row.ratio()).isNaN();
        assertThat(row.significant()).isFalse();
        assertThat(row.caveat()).contains("software adapter").contains("not compared as speed");
        // the same change on wasm is a significant slow-down: the rule, not the data, decides above
        Comparison w = Comparison.of(Comparison.By.RUN, "r1", "r2", List.of(wasm("r1", 0, 10)), List.of(wasm("r2", 5, 30)));
        assertThat(w.rows().get(0).ratio()).isEqualTo(3.0);
    }

    @Test
    void noRegressionIsFlaggedOnIt() {
        List<RunResult> hist = List.of(swiftShader("r1", 0, 10), swiftShader("r2", 5, 10), swiftShader("r3", 10, 10), swiftShader("r4", 15, 10));
        assertThat(MatrixBuilder.change(hist, swiftShader("r5", 20, 40), RegressionDetector.defaults())).isNull();
        assertThat(MatrixBuilder.change(List.of(wasm("r1", 0, 10), wasm("r2", 5, 10), wasm("r3", 10, 10), wasm("r4", 15, 10)),
                wasm("r5", 20, 40), RegressionDetector.defaults())).isNotNull();
    }

    @Test
    void theVerdictsWindowMakesAnyFigureIndicative() {
        RunResult r = wasm("r", 0, 4);
        RunResult window = RunResult.of(r.runId(), r.startedAt(), r.id(), new Outcome.Ran(r.actual().orElse(null), r.timings().orElseThrow().withQuality(r.timings().orElseThrow().quality().inVerdictWindow()), Optional.ofNullable(r.parity().orElse(null))), r.status(), r.reason(), r.provenance(), r.memory(), r.fallbackPath(), r.warnings());
        assertThat(SpeedStanding.of(r)).isEqualTo(SpeedStanding.COUNTS);
        assertThat(SpeedStanding.of(window)).isEqualTo(SpeedStanding.INDICATIVE);
        assertThat(SpeedStanding.of(swiftShader("r", 0, 1))).isEqualTo(SpeedStanding.SOFTWARE_ADAPTER);
        assertThat(window.timings().orElseThrow().quality().caveats()).contains("indicative, not settled");
        assertThat(Timings.of(1, 1, 0, new double[]{1}).quality().verdictWindow()).isFalse();
    }
}
