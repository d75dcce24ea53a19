package dev.accelbridge.reports.score;

import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.RunResult;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.List;

import static dev.accelbridge.reports.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

class PositionSpreadTest {
    private final HostInfo h = host("alpha");

    private RunResult wasmCopy(String run, int minute, BackendId requested, double median) {
        double[] s = samples(median, 0.01, 200, minute);
        return requested == BackendId.WASM
                ? passed(run, t(minute), h, ModelFamily.TEXT, "bert-mini", BackendId.WASM, chromiumProv(h, false), s)
                : fellBack(run, t(minute), h, ModelFamily.TEXT, "bert-mini", requested, BackendId.WASM, chromiumProv(h, false), s);
    }

    @Test
    void theDefaultMatrixsWasmCopiesAreFlaggedWithTheirRange() {
        // as measured in one default run: Chromium's wasm bert-mini as three fallbacks and the wasm case itself
        List<RunResult> run = List.of(wasmCopy("r1", 1, BackendId.WEBNN_GPU, 0.58), wasmCopy("r1", 2, BackendId.WEBNN_CPU, 0.505),
                wasmCopy("r1", 3, BackendId.WEBNN_NPU, 0.555), wasmCopy("r1", 4, BackendId.WASM, 0.36));

        List<PositionSpread> spreads = PositionSpread.of(run);

        assertThat(spreads).hasSize(1);
        PositionSpread s = spreads.get(0);
        assertThat(s.copies()).extracting(RunResult::requested)
                .containsExactly(BackendId.WEBNN_GPU, BackendId.WEBNN_CPU, BackendId.WEBNN_NPU, BackendId.WASM);
        assertThat(s.lowMs()).isCloseTo(0.36, org.assertj.core.data.Offset.offset(0.01));
        assertThat(s.highMs()).isCloseTo(0.58, org.assertj.core.data.Offset.offset(0.01));
        assertThat(s.ratio()).isGreaterThan(1.5);
        assertThat(s.work()).contains("/wasm/").doesNotContain("webnn");
    }

    @Test
    void theSameBytesUnderTwoNamesAreTheSameWork() {
        // the experiment that found it: one published model copied under three names, run one after the other
        RunResult a = passed("r1", t(1), h, ModelFamily.TEXT, "copy1", BackendId.WASM, chromiumProv(h, false), samples(151.5, 0.01, 40, 1));
        RunResult b = passed("r1", t(2), h, ModelFamily.TEXT, "copy2", BackendId.WASM, chromiumProv(h, false), samples(71.5, 0.01, 40, 2));
        RunResult sameBytes = RunResult.of(b.runId(), b.startedAt(), new dev.accelbridge.core.CaseId(b.id().family(), "copy2",
                a.id().modelSha256(), b.id().inputSet(), b.id().inputShapes(), b.id().precision(), 1, BackendId.WASM, b.id().lane()),
                b.outcome(), b.status(), null, b.provenance(), b.memory(), b.fallbackPath(), List.of());
        assertThat(PositionSpread.of(List.of(a, b))).as("different bytes").isEmpty();
        assertThat(PositionSpread.of(List.of(a, sameBytes))).singleElement()
                .satisfies(s -> assertThat(s.ratio()).isGreaterThan(2));
    }

    @Test
    void copiesWithinTenPercentOrWithOverlappingIntervalsAreOneFigure() {
        // 4 % apart with 1 % noise: intervals apart, but within the 10 % a reader cannot act on
        assertThat(PositionSpread.of(List.of(wasmCopy("r1", 1, BackendId.WEBNN_GPU, 1.00), wasmCopy("r1", 2, BackendId.WASM, 1.04))))
                .isEmpty();
        // 30 % apart but each copy noisy enough that the intervals overlap
        double[] a = samples(1.0, 0.9, 8, 1);
        double[] b = samples(1.3, 0.9, 8, 2);
        List<RunResult> noisy = List.of(
                fellBack("r1", t(1), h, ModelFamily.TEXT, "bert-mini", BackendId.WEBNN_GPU, BackendId.WASM, chromiumProv(h, false), a),
                passed("r1", t(2), h, ModelFamily.TEXT, "bert-mini", BackendId.WASM, chromiumProv(h, false), b));
        assertThat(noisy.get(0).timings().orElseThrow().quality().p50Ci().hi()).isGreaterThan(noisy.get(1).timings().orElseThrow().quality().p50Ci().lo());
        assertThat(PositionSpread.of(noisy)).isEmpty();
    }

    @Test
    void onlyTheSameWorkInTheSameRunIsCompared() {
        // another run, another model, another backend that ran: never copies of each other
        List<RunResult> rs = List.of(wasmCopy("r1", 1, BackendId.WASM, 0.36), wasmCopy("r2", 2, BackendId.WASM, 0.58),
                passed("r1", t(3), h, ModelFamily.TEXT, "bert-other", BackendId.WASM, chromiumProv(h, false), samples(0.58, 0.01, 200, 3)),
                passed("r1", t(4), h, ModelFamily.TEXT, "bert-mini", BackendId.WEBGPU, chromiumProv(h, true), samples(0.58, 0.01, 200, 4)));
        assertThat(PositionSpread.of(rs)).isEmpty();
    }

    @Test
    void aSweepOfSessionOptionsOrScenariosIsManyWorksNotCopiesOfOne() {
        // optimization=all against optimization=disabled: twice as fast by design, not by where each fell in the run
        RunResult all = wasmCopy("r1", 1, BackendId.WASM, 0.36);
        RunResult disabled = withOptions(wasmCopy("r1", 2, BackendId.WASM, 0.72), "optimization=disabled");
        assertThat(PositionSpread.of(List.of(all, disabled))).isEmpty();
        // and the same options twice, apart: still flagged
        assertThat(PositionSpread.of(List.of(withOptions(wasmCopy("r1", 1, BackendId.WASM, 0.36), "optimization=disabled"), disabled)))
                .singleElement().satisfies(s -> assertThat(s.work()).contains("optimization=disabled"));
        // a generation and a single pass of the same model bytes
        RunResult gen = RunResult.of(all.runId(), t(3), withId(all, all.id().runtimeOptions(), dev.accelbridge.core.ScenarioId.generate(8, 16)),
                new Outcome.Ran(all.actual().orElse(null), wasmCopy("r1", 3, BackendId.WASM, 5.0).timings().orElse(null), Optional.ofNullable(all.parity().orElse(null))), all.status(), null, all.provenance(), all.memory(), all.fallbackPath(), List.of());
        assertThat(PositionSpread.of(List.of(all, gen))).isEmpty();
    }

    private static RunResult withOptions(RunResult r, String options) {
        return RunResult.of(r.runId(), r.startedAt(), withId(r, dev.accelbridge.core.RuntimeOptions.parse(options), r.id().scenario()),
                r.outcome(), r.status(), r.reason(), r.provenance(), r.memory(), r.fallbackPath(), List.of());
    }

    private static dev.accelbridge.core.CaseId withId(RunResult r, dev.accelbridge.core.RuntimeOptions ro, dev.accelbridge.core.ScenarioId sc) {
        var id = r.id();
        return new dev.accelbridge.core.CaseId(id.family(), id.model(), id.modelSha256(), id.inputSet(), id.inputShapes(), id.precision(),
                id.batchSize(), id.requested(), id.lane(), sc, ro);
    }
}
