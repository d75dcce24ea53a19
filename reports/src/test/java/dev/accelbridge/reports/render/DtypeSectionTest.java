package dev.accelbridge.reports.render;

import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.Analysis;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.Readout;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.Fixtures;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The dtype section: a row per model run in more than one dtype, backend and target; no section without one. */
class DtypeSectionTest {
    static final HostInfo H = Fixtures.host("alpha");

    private static RunResult at(RunResult r, Precision p, double readout) {
        CaseId id = r.id();
        return RunResult.of(r.runId(), r.startedAt(), new CaseId(id.family(), id.model(), id.modelSha256(), id.inputSet(),
                id.inputShapes(), p, id.batchSize(), id.requested(), id.lane()), new Outcome.Ran(r.actual().orElse(null), r.timings().orElse(null), Optional.ofNullable(p == Precision.FP32 ? r.parity().orElse(null) : new dev.accelbridge.core.Parity(0.3, 0.2, 0.995, 0.1, false,
                "native-cpu fp32"))), r.status(), r.reason(), r.provenance(), r.memory(), r.fallbackPath(), r.warnings()).withVariantParity(p == Precision.FP32 ? null
                : new dev.accelbridge.core.Parity(1e-6, 1e-6, 1, 0.1, true, "native-cpu q8"))
                .withAnalysis(Analysis.NONE.withReadout(new Readout(Readout.Kind.POOLED_EMBEDDING, 4, readout, 0.01, 0, null)));
    }

    private static Matrix matrix(RunResult... results) {
        return new Matrix("r1", Fixtures.t(2), List.of(results).stream().map(r -> new Cell(r, dev.accelbridge.reports.score.Scorer.score(r,
                Double.NaN), Double.NaN, Double.NaN, null, List.of(), null, null)).toList(), Map.of(), Map.of());
    }

    @Test
    void aModelOfTwoDtypesGetsARowSayingWhatToShipAndWhatWasSkipped() {
        RunResult fp32 = at(Fixtures.passed("r1", Fixtures.t(0), H, ModelFamily.TEXT, "minilm", BackendId.WASM,
                Fixtures.chromiumProv(H, false), new double[] {48, 48, 48}), Precision.FP32, 1.0);
        RunResult q8 = at(Fixtures.passed("r1", Fixtures.t(1), H, ModelFamily.TEXT, "minilm", BackendId.WASM,
                Fixtures.chromiumProv(H, false), new double[] {24, 24, 24}), Precision.Q8, 0.987);
        Section s = DtypeSection.of(matrix(fp32, q8));
        assertThat(s.table().rows()).singleElement().satisfies(r -> assertThat(r.cells()).extracting(Section.Entry::text)
                .contains("minilm", "fp32", "1.0000 (pooled-embedding)", "q8: lossy: pooled-embedding cosine 0.9870 to fp32 native, below 0.99"));
        assertThat(MarkdownRenderer.render(matrix(fp32, q8))).contains("## Which dtype to ship (variants within cosine 0.99 of fp32 native)");
        assertThat(DtypeSection.of(matrix(fp32)).table().rows()).as("one dtype: nothing to choose").isEmpty();
        assertThat(MarkdownRenderer.render(matrix(fp32))).doesNotContain("Which dtype to ship");
    }
}
