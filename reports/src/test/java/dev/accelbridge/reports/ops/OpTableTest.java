package dev.accelbridge.reports.ops;

import dev.accelbridge.core.Analysis;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Placement;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.Fixtures;
import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.reports.store.ResultJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import java.util.List;
import java.util.Map;

import static dev.accelbridge.reports.Fixtures.t;
import static org.assertj.core.api.Assertions.assertThat;

/** The op table from results alone: verdicts (a pass on the CPU EP apart), the newest result per case, the first failure, changes. */
class OpTableTest {
    static final Provenance CHROMIUM = Provenance.of("chromium", "156", "playwright", "swiftshader", true, List.of(), Map.of());
    static final double[] S = {0.1, 0.11, 0.12};

    static RunResult passed(String model, Placement p, int minute) {
        RunResult r = Fixtures.passed("r1", t(minute), null, ModelFamily.OPS, model, BackendId.WEBGPU, CHROMIUM, S);
        return withPlacement(r, p);
    }

    static RunResult withPlacement(RunResult r, Placement p) {
        return RunResult.of(r.runId(), r.startedAt(), r.id(), r.outcome(), r.status(), r.reason(), r.provenance(),
                r.memory(), r.fallbackPath(), r.warnings()).withVariantParity(r.variantParity()).withAnalysis(new Analysis(null, null, null, null, p));
    }

    @Test
    void aPassOnTheCpuEpIsItsOwnVerdictAndTheWorstVariantDecidesTheOp() {
        Placement gpu = Placement.onRequested("JsExecutionProvider", "created with CPU fallback disabled");
        Placement cpu = Placement.onCpu("JsExecutionProvider", List.of(), "This session contains graph nodes that are assigned "
                + "to the default CPU EP, but fallback to CPU EP has been explicitly disabled by the user.");
        List<RunResult> rs = List.of(
                passed("Abs-13-f32", gpu, 1),
                passed("Abs-13-i32", gpu, 1),
                passed("Elu-6-f32.alpha=0.5", cpu, 1),
                passed("Elu-22-f32", gpu, 1),
                withPlacement(Fixtures.wrong("r1", t(1), ModelFamily.OPS, "CumSum-14-f32.reverse=1", BackendId.WEBGPU, CHROMIUM, S), gpu),
                passed("CumSum-14-f32.axis=1", gpu, 1),
                Fixtures.notRun("r1", t(1), ModelFamily.OPS, "Add-14-f16", BackendId.WEBGPU, Status.UNSUPPORTED, "no shader-f16", CHROMIUM),
                // an older result of a case the newer one replaces
                withPlacement(Fixtures.wrong("r0", t(0), ModelFamily.OPS, "Abs-13-f32", BackendId.WEBGPU, CHROMIUM, S), gpu),
                // not the op suite: left out
                Fixtures.passed("r1", t(1), null, ModelFamily.VISION, "convnet-small", BackendId.WEBGPU, CHROMIUM, S));
        OpTable table = OpTable.of(rs, c -> true);
        assertThat(table.columns()).containsExactly("webgpu@chromium@156");
        assertThat(table.rows()).extracting(OpTable.Row::opType).containsExactly("Abs", "Add", "CumSum", "Elu");
        OpTable.Cell abs = table.cell("Abs", "webgpu@chromium@156");
        assertThat(abs.verdict()).isEqualTo(OpTable.Verdict.PASSED);
        assertThat(abs.passed()).isEqualTo(2);
        assertThat(abs.first()).isNull();
        OpTable.Cell elu = table.cell("Elu", "webgpu@chromium@156");
        assertThat(elu.verdict()).isEqualTo(OpTable.Verdict.CPU);
        assertThat(elu.passed()).isEqualTo(1);
        assertThat(elu.first().variant()).isEqualTo("f32.alpha=0.5");
        assertThat(elu.first().opset()).isEqualTo(6);
        assertThat(elu.first().reason()).contains("fallback to CPU EP has been explicitly disabled");
        OpTable.Cell cumsum = table.cell("CumSum", "webgpu@chromium@156");
        assertThat(cumsum.verdict()).isEqualTo(OpTable.Verdict.WRONG);
        assertThat(cumsum.first().variant()).isEqualTo("f32.reverse=1");
        assertThat(cumsum.first().maxAbsErr()).isEqualTo(0.5);
        assertThat(cumsum.first().repro()).contains("--suites ops").contains("--backends webgpu").contains("--browser chromium");
        assertThat(table.cell("Add", "webgpu@chromium@156").verdict()).isEqualTo(OpTable.Verdict.UNSUPPORTED);
        assertThat(table.totals().get("webgpu@chromium@156")).containsEntry(OpTable.Verdict.PASSED, 1).containsEntry(OpTable.Verdict.CPU, 1)
                .containsEntry(OpTable.Verdict.WRONG, 1).containsEntry(OpTable.Verdict.UNSUPPORTED, 1);
        assertThat(table.render()).contains("placed on CPU 1/2").contains("CumSum on webgpu@chromium@156: wrong [f32.reverse=1, opset 14]")
                .contains("repro: accelbridge run --suites ops --backends webgpu --browser chromium@156  (case CumSum");
        assertThat(table.toJson()).contains("\"verdict\":\"CPU\"");
        assertThat(OpTable.of(rs, c -> c.requested() == dev.accelbridge.core.BackendId.WASM).rows()).isEmpty();

        // two stores compare op by op, in columns without the versions (a store after an upgrade against one before it)
        OpTable before = OpTable.of(List.of(passed("Elu-6-f32.alpha=0.5", gpu, 0), passed("Abs-13-f32", gpu, 0)), c -> true,
                OpTable::laneColumn);
        OpTable after = OpTable.of(List.of(passed("Elu-6-f32.alpha=0.5", cpu, 0), passed("Abs-13-f32", gpu, 0)), c -> true,
                OpTable::laneColumn);
        assertThat(after.changesFrom(before)).containsExactly("Elu on webgpu@chromium: passed 1/1 → placed on CPU 0/1");
        assertThat(after.changesFrom(after)).isEmpty();
    }

    @Test
    void placementAndTheOpFieldsSurviveARealStoreAndTheJsonForm(@TempDir Path dir) {
        Placement cpu = Placement.onCpu("WebNNExecutionProvider", List.of(), "refused with CPU fallback disabled");
        RunResult r = passed("GlobalAveragePool-1-f32", cpu, 2);
        try (MatrixStore store = MatrixStore.open(dir.resolve("m.duckdb"))) {
            store.write(r);
            RunResult back = store.allResults().get(0);
            assertThat(back.analysis().placement()).isEqualTo(cpu);
            assertThat(OpTable.verdict(back)).isEqualTo(OpTable.Verdict.CPU);
        }
        var json = ResultJson.result(r, false);
        assertThat(json.path("opType").asText()).isEqualTo("GlobalAveragePool");
        assertThat(json.path("opset").asInt()).isEqualTo(1);
        assertThat(json.path("variant").asText()).isEqualTo("f32");
        // found when tried: a refused strict-placement session was stored as run on the CPU EP alone
        assertThat(json.path("placement").path("ranOn").asText())
                .isEqualTo("WebNNExecutionProvider and CPUExecutionProvider (which nodes: unknown)");
        assertThat(json.path("placement").path("onRequested").asBoolean()).isFalse();
        assertThat(ResultJson.result(Fixtures.passed("r1", t(1), null, ModelFamily.VISION, "convnet-small", BackendId.WEBGPU, CHROMIUM, S),
                false).path("opType").isNull()).isTrue();
    }
}
