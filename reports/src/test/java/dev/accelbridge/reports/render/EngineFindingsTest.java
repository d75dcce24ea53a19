package dev.accelbridge.reports.render;

import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.Fixtures;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Engine findings from constructed results (fixtures): found when tried, any status difference between JSEP and the native
 * WebGPU EP was called "a defect of one engine alone", UNAVAILABLE (a release without that engine) and a lane's own failure
 * ("no page joined") included.
 */
class EngineFindingsTest {
    private static final HostInfo H = Fixtures.host("alpha");

    private static RunResult on(OrtWebEngine engine, String model, Status status, String reason) {
        RunResult r = Fixtures.passed("r1", Fixtures.t(0), H, ModelFamily.TEXT, model, BackendId.WEBGPU,
                Fixtures.chromiumProv(H, "1.30.0"), new double[] {5, 5, 5});
        var id = r.id();
        var lane = id.lane().with(OrtWebEngine.AXIS, engine.id());
        RunResult moved = RunResult.of(r.runId(), r.startedAt(), new dev.accelbridge.core.CaseId(id.family(), id.model(), id.modelSha256(),
                id.inputSet(), id.inputShapes(), id.precision(), id.batchSize(), id.requested(), lane), status.executed() ? r.outcome() : new Outcome.NotRun(),
                status, reason, r.provenance(), r.memory(),
                r.fallbackPath(), r.warnings());
        return moved;
    }

    private static Matrix matrix(List<RunResult> results) {
        return new Matrix("r1", Fixtures.t(2), results.stream().map(r -> new Cell(r, dev.accelbridge.reports.score.Scorer.score(r,
                Double.NaN), Double.NaN, Double.NaN, null, List.of(), null, null)).toList(), Map.of(), Map.of());
    }

    @Test
    void onlyVerdictsOnTheModelAreFindings() {
        Section s = EngineFindings.of(matrix(List.of(
                on(OrtWebEngine.JSEP, "wrong", Status.PASSED, null),
                on(OrtWebEngine.WEBGPU_EP, "wrong", Status.WRONG_OUTPUT, "outside tolerance"),
                on(OrtWebEngine.JSEP, "missing", Status.PASSED, null),
                on(OrtWebEngine.WEBGPU_EP, "missing", Status.UNAVAILABLE, "onnxruntime-web 1.21.0 has no native WebGPU EP"),
                on(OrtWebEngine.JSEP, "nopage", Status.FAILED, "lane chromium did not start: no page joined"),
                on(OrtWebEngine.WEBGPU_EP, "nopage", Status.PASSED, null),
                on(OrtWebEngine.JSEP, "load", Status.FAILED, "load: Could not find an implementation for GatherBlockQuantized"),
                on(OrtWebEngine.WEBGPU_EP, "load", Status.PASSED, null))));
        assertThat(s.table().rows()).extracting(r -> r.cells().get(0).text()).hasSize(2)
                .anySatisfy(c -> assertThat(c).contains("wrong")).anySatisfy(c -> assertThat(c).contains("load"));
    }
}
