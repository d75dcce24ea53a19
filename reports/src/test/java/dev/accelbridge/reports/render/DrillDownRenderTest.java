package dev.accelbridge.reports.render;

import com.fasterxml.jackson.databind.JsonNode;
import dev.accelbridge.core.Analysis;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Bisection;
import dev.accelbridge.core.ColdStart;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.OpProfile;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.Recreate;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.Fixtures;
import dev.accelbridge.reports.history.RegressionDetector;
import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.reports.store.ResultJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A case's drill-down in every form: the one JSON form (the interface {@code run --json} users script against), the
 * store's column (written and read back), and the Markdown, HTML and JUnit XML renderings derived from it.
 */
class DrillDownRenderTest {
    @TempDir
    Path dir;

    static Analysis analysis() {
        Bisection b = new Bisection(Bisection.Outcome.FOUND, "pool/AveragePool_1", "AveragePool", Map.of("pads", "[1, 1, 1, 1]"),
                List.of("x: float32[1,4,6,6]"), List.of("y: float32[1,4,6,6]"), 0.25, 1e-4, "native-cpu", BackendId.WEBNN_CPU,
                List.of(new Bisection.Step("pool/AveragePool_1", "AveragePool", 0.25), new Bisection.Step("relu/Relu_2", "Relu", 0.25)),
                5, "/tmp/repro/x", "the repro diverges on its own on webnn-cpu");
        OpProfile p = OpProfile.of("onnxruntime-web session profiler", 2, List.of(
                new OpProfile.NodeEvent("conv", "FusedConv", "CPUExecutionProvider", 3.0),
                new OpProfile.NodeEvent("pool", "AveragePool", "CPUExecutionProvider", 1.0),
                new OpProfile.NodeEvent("conv", "FusedConv", "CPUExecutionProvider", 3.0),
                new OpProfile.NodeEvent("pool", "AveragePool", "CPUExecutionProvider", 1.0)), "CPUExecutionProvider", 4.5, null);
        Recreate r = Recreate.of(3, List.of(new Recreate.Cycle(1, 10, 2, 100 << 20, 5 << 20),
                new Recreate.Cycle(2, 10, 2, 103 << 20, 5 << 20), new Recreate.Cycle(3, 10, 2, 106 << 20, 5 << 20)), "test");
        return new Analysis(b, p, new ColdStart(20, 100, 50, 4), r);
    }

    private RunResult wrong() {
        HostInfo h = Fixtures.host("h1");
        Provenance prov = Fixtures.chromiumProv(h, true);
        return Fixtures.wrong("r1", Fixtures.t(0), ModelFamily.VISION, "pool-net", BackendId.WEBNN_CPU, prov,
                Fixtures.samples(4, 0.1, 5, 1)).withAnalysis(analysis());
    }

    @Test
    void theJsonFormCarriesTheFieldsUsersScriptAgainstAndReadsBack() {
        RunResult r = wrong();
        JsonNode j = ResultJson.result(r, false);
        assertThat(j.path("bisection").path("node").asText()).isEqualTo("pool/AveragePool_1");
        assertThat(j.path("bisection").path("opType").asText()).isEqualTo("AveragePool");
        assertThat(j.path("bisection").path("maxAbsErr").asDouble()).isEqualTo(0.25);
        assertThat(j.path("bisection").path("reproDir").asText()).isEqualTo("/tmp/repro/x");
        JsonNode op = j.path("profile").path("ops").get(0);
        assertThat(op.path("opType").asText()).isEqualTo("FusedConv");
        assertThat(op.path("ms").asDouble()).isEqualTo(3.0);
        assertThat(op.path("share").asDouble()).isEqualTo(0.75);
        assertThat(j.path("profile").path("nodesOffProvider").isArray()).isTrue();
        assertThat(j.path("profile").path("memcpy").asInt()).isZero();
        assertThat(j.path("recreate").path("suspectedLeak").asBoolean()).as("3 MiB per cycle").isTrue();
        assertThat(j.path("coldStart").path("firstRunOverheadMs").asDouble()).isEqualTo(46.0);
        assertThat(ResultJson.result(j).analysis()).isEqualTo(r.analysis());
        // an unknown figure is null, never the string "NaN"
        RunResult unfetched = r.withAnalysis(new Analysis(null, null, new ColdStart(Double.NaN, 100, 50, 4), null));
        JsonNode cold = ResultJson.result(unfetched, false).path("coldStart");
        assertThat(cold.get("fetchMs").isNull()).as(cold.toString()).isTrue();
        assertThat(Double.isNaN(ResultJson.result(ResultJson.result(unfetched, false)).analysis().coldStart().fetchMs())).isTrue();
    }

    @Test
    void theStoreKeepsTheDrillDownAndTheReportsShowIt() {
        RunResult r = wrong();
        try (MatrixStore s = MatrixStore.open(dir.resolve("m.duckdb"))) {
            String run = s.beginRun(Fixtures.host("h1"), Map.of(), "{}");
            RunResult mine = RunResult.of(run, r.startedAt(), r.id(), r.outcome(), r.status(), r.reason(), r.provenance(), r.memory(), r.fallbackPath(), r.warnings()).withVariantParity(null).withAnalysis(r.analysis());
            s.write(mine);
            s.finishRun(run);
            assertThat(s.results(run)).singleElement().satisfies(back -> assertThat(back.analysis()).isEqualTo(r.analysis()));
            Matrix m = MatrixBuilder.build(s, Optional.of(run), RegressionDetector.defaults());
            String md = MarkdownRenderer.render(m);
            assertThat(md).contains("## Drill-down", "pool/AveragePool_1", "Error along the path", "Time per op type",
                    "FusedConv", "Re-creation leak check", "suspected leak");
            String html = HtmlRenderer.render(m);
            assertThat(html).contains("id=\"drill-down\"", "<details class=\"case\"", "class=\"bars op\"", "class=\"bars err\"");
            String xml = JUnitXmlRenderer.render(m);
            assertThat(xml).contains("message=\"WRONG_OUTPUT: first diverging node 'pool/AveragePool_1' (AveragePool)")
                    .contains("repro: /tmp/repro/x");
        }
    }

    @Test
    void aFreshPageIsWhatAUserMeetsOnlyWhereV8TieredUpAsAUsersBrowserDoes() {
        // found when tried: figures taken under --js-flags=--wasm-sync-tier-up (session creation 3.4-5.0 s instead of 0.2 s)
        // were labelled what a user meets on first use
        HostInfo h = Fixtures.host("h1");
        Provenance plain = Fixtures.chromiumProv(h, false);
        java.util.Map<String, String> versions = new java.util.HashMap<>(plain.runtimeVersions());
        versions.put("v8-flags", "--wasm-sync-tier-up");
        Provenance sync = new Provenance(plain.host(), plain.hostFingerprint(), plain.os(), plain.browser(), plain.browserVersion(),
                plain.driver(), plain.adapter(), plain.softwareAdapter(), plain.executionProviders(), versions, plain.threads(), Map.of());
        Analysis fresh = new Analysis(null, null, new ColdStart(20, 100, 50, 4, true), analysis().recreate());
        for (Provenance p : List.of(plain, sync)) {
            RunResult r = Fixtures.passed("r1", Fixtures.t(0), h, ModelFamily.VISION, "net", BackendId.WASM, p,
                    Fixtures.samples(4, 0.1, 5, 1)).withAnalysis(fresh);
            Matrix m = new Matrix("r1", Fixtures.t(2), List.of(new Cell(r, dev.accelbridge.reports.score.Scorer.score(r, Double.NaN),
                    Double.NaN, Double.NaN, null, List.of(), null, null)), Map.of(), Map.of());
            String md = MarkdownRenderer.render(m);
            if (p == sync) {
                assertThat(md).contains("yes, but V8 ran with --wasm-sync-tier-up: not what a browser tiering in the background meets").doesNotContain("yes: what a user meets");
            } else {
                assertThat(md).contains("yes: what a user meets on first use");
            }
        }
    }
}
