package dev.accelbridge.reports.recommend;

import com.fasterxml.jackson.databind.JsonNode;
import dev.accelbridge.core.Analysis;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.Readout;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.accelbridge.reports.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/**
 * Dtype recommendations from constructed results (test fixtures, not measurements shown to anyone), shaped as the
 * published sentence embedder's were measured here: q8 lossy (pooled cosine 0.987 to fp32 native) but computed right on
 * wasm, computed wrongly by WebGPU (cosine 0.05 to its own native run), and a q4 WebGPU could not run.
 */
class DtypeRecommenderTest {
    private final HostInfo h = host("alpha");

    private List<RunResult> store() {
        var wasm = chromiumProv(h, false);
        return List.of(
                passed("r", t(0), h, ModelFamily.TEXT, "minilm", BackendId.CPU, nativeProv(h), new double[] {10, 10, 10}),
                variant(passed("r", t(1), h, ModelFamily.TEXT, "minilm", BackendId.CPU, nativeProv(h), new double[] {6, 6, 6}),
                        Precision.Q8, Status.WRONG_OUTPUT, 0.987, null),
                variant(passed("r", t(2), h, ModelFamily.TEXT, "minilm", BackendId.WASM, wasm, new double[] {240, 240, 240}),
                        Precision.FP32, Status.PASSED, 0.999999, null),
                variant(passed("r", t(3), h, ModelFamily.TEXT, "minilm", BackendId.WASM, wasm, new double[] {108, 108, 108}),
                        Precision.Q8, Status.WRONG_OUTPUT, 0.987, cos(0.9997)),
                variant(passed("r", t(4), h, ModelFamily.TEXT, "minilm", BackendId.WEBGPU, wasm, new double[] {5000, 5000, 5000}),
                        Precision.FP32, Status.PASSED, 0.999999, null),
                variant(passed("r", t(5), h, ModelFamily.TEXT, "minilm", BackendId.WEBGPU, wasm, new double[] {970, 970, 970}),
                        Precision.Q8, Status.WRONG_OUTPUT, 0.034, cos(0.048)),
                at(notRun("r", t(6), ModelFamily.TEXT, "minilm", BackendId.WEBGPU, Status.UNSUPPORTED,
                        "load: the adapter has no shader-f16", wasm), Precision.Q4F16),
                // one dtype only: nothing to choose
                passed("r", t(7), h, ModelFamily.VISION, "convnet", BackendId.CPU, nativeProv(h), new double[] {3, 3, 3}));
    }

    @Test
    void theFastestVariantWithinTheStatedClosenessIsTheAnswerAndTheRestSayWhy() {
        List<DtypeRecommendation> recs = DtypeRecommender.recommend(store(), 0.98);
        assertThat(recs).extracting(DtypeRecommendation::backend).containsExactly("cpu", "wasm", "webgpu");
        assertThat(recs).extracting(DtypeRecommendation::model).containsOnly("minilm");

        DtypeRecommendation wasm = recs.get(1);
        assertThat(wasm.best().precision()).isEqualTo(Precision.Q8);
        assertThat(wasm.best().closenessOf()).isEqualTo("pooled-embedding");
        assertThat(wasm.best().speedupVsFp32()).isCloseTo(240 / 108.0, within(1e-9));
        assertThat(wasm.describe()).contains("ship q8: pooled-embedding cosine 0.9870 to fp32 native, 2.22x faster than fp32 (108 ms)")
                .contains("skipped fp32 (slower than q8").contains("q4f16 (not measured here)");

        DtypeRecommendation gpu = recs.get(2);
        assertThat(gpu.best().precision()).as("q8 is faster, but WebGPU computes it wrongly").isEqualTo(Precision.FP32);
        assertThat(gpu.skipped()).extracting(DtypeRecommendation.Skipped::precision).containsExactly(Precision.Q8, Precision.Q4F16);
        assertThat(gpu.skipped().get(0).why()).startsWith("wrong here: cosine 0.0480 to its own native CPU run, below 0.98");
        assertThat(gpu.skipped().get(1).why()).isEqualTo("UNSUPPORTED: load: the adapter has no shader-f16");

        assertThat(recs.get(0).best().precision()).isEqualTo(Precision.Q8); // natively, the reference's own q8 run
    }

    @Test
    void aTighterClosenessKeepsFp32AndSaysTheVariantIsLossy() {
        DtypeRecommendation wasm = DtypeRecommender.recommend(store(), 0.99).get(1);
        assertThat(wasm.best().precision()).isEqualTo(Precision.FP32);
        assertThat(wasm.skipped().get(0).why()).isEqualTo("lossy: pooled-embedding cosine 0.9870 to fp32 native, below 0.99");
    }

    @Test
    void theJsonFormCarriesEveryFigureAndNullWhereNoneWasMeasured() {
        JsonNode a = RecommendationJson.dtypeArray(DtypeRecommender.recommend(store(), 0.98));
        assertThat(a).hasSize(3);
        assertThat(a.get(1).get("best").get("precision").asText()).isEqualTo("q8");
        assertThat(a.get(0).get("fp32").get("speedupVsFp32").asDouble()).isEqualTo(1.0);
        assertThat(a.get(2).get("skipped").get(0).get("precision").asText()).isEqualTo("q8");
        assertThat(a.get(2).get("text").asText()).contains("webgpu on chromium");
    }

    private static Parity cos(double c) {
        return new Parity(0.5, 1, c, 0.1, false, "native-cpu q8");
    }

    private static RunResult at(RunResult r, Precision p) {
        CaseId id = r.id();
        return new RunResult(r.runId(), r.startedAt(), new CaseId(id.family(), id.model(), id.modelSha256(), id.inputSet(),
                id.inputShapes(), p, id.batchSize(), id.requested(), id.lane()), r.actual(), r.status(), r.reason(), r.provenance(),
                r.timings(), r.memory(), r.parity(), r.fallbackPath(), r.warnings());
    }

    /** {@code r} as a variant at {@code p}: its verdict, its pooled readout against fp32 native, its own native run's parity. */
    private static RunResult variant(RunResult r, Precision p, Status s, double readout, Parity own) {
        RunResult v = at(r, p).withStatus(s, s == Status.PASSED ? null : "outside tolerance");
        return v.withVariantParity(own).withAnalysis(Analysis.NONE.withReadout(new Readout(Readout.Kind.POOLED_EMBEDDING, 4, readout,
                0.03, readout >= Readout.SAME_MEANING ? 4 : 0, null)));
    }
}
