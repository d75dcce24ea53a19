package dev.accelbridge.reports.store;

import dev.accelbridge.core.ComputedPrecision;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Where half precision ran, as the store keeps it: written and read back whole, and a record from before still reads. */
class AnalysisJsonTest {
    @Test
    void kernelsComputingInFloat32InsideSurviveTheStoreAndOldRecordsHaveNone() throws Exception {
        ComputedPrecision c = ComputedPrecision.asDeclared(List.of("SkipLayerNormalization", "LayerNormalization"), "the profiler");
        ComputedPrecision back = AnalysisJson.computed(ResultJson.MAPPER.valueToTree(AnalysisForms.ComputedForm.of(c)));
        assertThat(back).isEqualTo(c);
        assertThat(back.float32Inside()).containsExactly("LayerNormalization", "SkipLayerNormalization");
        var old = ResultJson.MAPPER.readTree("{\"insertedCasts\":5,\"inFloat32\":true,\"basis\":\"the optimized graph\"}");
        assertThat(AnalysisJson.computed(old)).isEqualTo(ComputedPrecision.inFloat32InPart(5, "the optimized graph"));
        var hostile = ResultJson.MAPPER.readTree("{\"insertedCasts\":0,\"basis\":\"b\",\"float32Inside\":[\"" + "x".repeat(500)
                + "\", 7, \"LayerNormalization\"]}");
        assertThat(AnalysisJson.computed(hostile).float32Inside()).containsExactly("LayerNormalization");
    }
}
