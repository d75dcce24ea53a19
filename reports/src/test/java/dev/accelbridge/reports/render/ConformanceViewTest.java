package dev.accelbridge.reports.render;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.Fixtures;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The conformance view over a matrix that holds a row without a model file (an app's page that made no session has no
 * sha256): the row is left out of the view, beside a single-op model's row counted in it.
 */
class ConformanceViewTest {
    static final HostInfo H = Fixtures.host("alpha");

    @Test
    void aRowWithoutAModelSha256IsLeftOutAndTheSingleOpModelsAreCounted() {
        RunResult op = Fixtures.passed("r1", Fixtures.t(0), H, ModelFamily.OTHER, "relu", BackendId.WASM, Fixtures.chromiumProv(H, false),
                Fixtures.samples(1, 0.01, 5, 1));
        RunResult app = Fixtures.passed("r1", Fixtures.t(1), H, ModelFamily.OTHER, "no session", BackendId.WASM,
                Fixtures.chromiumProv(H, false), Fixtures.samples(1, 0.01, 5, 2));
        CaseId noSha = new CaseId(app.id().family(), app.id().model(), null, app.id().inputSet(), app.id().inputShapes(), app.id().precision(),
                app.id().batchSize(), app.id().requested(), app.id().lane());
        RunResult none = RunResult.of(app.runId(), app.startedAt(), noSha, app.outcome(), app.status(), app.reason(), app.provenance(), app.memory(), app.fallbackPath(), app.warnings());
        Matrix m = new Matrix("r1", Fixtures.t(2), List.of(op, none).stream().map(r -> new Cell(r, dev.accelbridge.reports.score.Scorer.score(r,
                Double.NaN), Double.NaN, Double.NaN, null, List.of(), null, null)).toList(), Map.of(), Map.of("sha-relu", List.of("Relu")));
        Matrix.Conformance c = m.conformance();
        assertThat(c.ops()).containsExactly("Relu");
        assertThat(c.columns()).hasSize(1);
    }

    /**
     * {@code matrix.json}'s conformance keeps the view's order: ops by name, columns in matrix order (webgpu's before
     * wasm's here), statuses in their own order (PASSED before FAILED), not each map's keys sorted by name.
     */
    @Test
    void theJsonKeepsTheViewsOrder() {
        var prov = Fixtures.chromiumProv(H, false);
        RunResult gpu = Fixtures.passed("r1", Fixtures.t(0), H, ModelFamily.OTHER, "relu", BackendId.WEBGPU, prov, Fixtures.samples(1, 0.01, 5, 1));
        RunResult gpuFailed = Fixtures.notRun("r1", Fixtures.t(1), ModelFamily.OTHER, "relu-2", BackendId.WEBGPU, Status.FAILED, "lost", prov);
        RunResult wasm = Fixtures.passed("r1", Fixtures.t(2), H, ModelFamily.OTHER, "relu", BackendId.WASM, prov, Fixtures.samples(1, 0.01, 5, 2));
        Matrix m = new Matrix("r1", Fixtures.t(3), List.of(gpu, gpuFailed, wasm).stream().map(r -> new Cell(r,
                dev.accelbridge.reports.score.Scorer.score(r, Double.NaN), Double.NaN, Double.NaN, null, List.of(), null, null)).toList(),
                Map.of(), Map.of("sha-relu", List.of("Relu"), "sha-relu-2", List.of("Relu")));
        com.fasterxml.jackson.databind.JsonNode relu = JsonRenderer.render(m).get("conformance").get("Relu");
        List<String> columns = new java.util.ArrayList<>();
        relu.fieldNames().forEachRemaining(columns::add);
        assertThat(columns).containsExactlyElementsOf(m.conformance().columns());
        assertThat(columns.get(0)).startsWith("webgpu");
        assertThat(relu.get(columns.get(0)).toString()).isEqualTo("{\"PASSED\":1,\"FAILED\":1}");
    }
}
