package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class CaseIdTest {
    private static ModelCase mc() {
        ModelSpec spec = new ModelSpec(ModelFamily.VISION, "convnet-small", Path.of("m.onnx"),
                "0123456789abcdef0123456789abcdef", 17, 10, List.of("Conv"), List.of(), List.of(), "generated", 1e-3);
        return new ModelCase(spec, "images", List.of(NamedTensor.ofFloats("pixel_values", new long[]{4, 3, 2, 2}, new float[48]),
                NamedTensor.ofLongs("scale", new long[0], new long[]{1})), Optional.empty());
    }

    @Test
    void everyDimensionIsTakenFromTheCase() {
        CaseId id = CaseId.of(mc(), BackendId.WEBGPU, LaneId.of(BrowserKind.CHROMIUM));
        assertThat(id.family()).isEqualTo(ModelFamily.VISION);
        assertThat(id.inputShapes()).isEqualTo("pixel_values=4x3x2x2;scale=");
        assertThat(id.batchSize()).isEqualTo(4);
        assertThat(id.precision()).isEqualTo(Precision.FP32);
        assertThat(id.key()).isEqualTo("vision/convnet-small@0123456789ab/images[pixel_values=4x3x2x2;scale=]/fp32/b4/webgpu/chromium");
        assertThat(id.row()).isEqualTo("vision/convnet-small");
    }

    @Test
    void equalityIsTheIdentityAndOutcomesAreNotPartOfIt() {
        CaseId a = CaseId.of(mc(), BackendId.WASM, LaneId.of(BrowserKind.CHROMIUM));
        assertThat(a).isEqualTo(CaseId.of(mc(), BackendId.WASM, LaneId.parse("chromium")));
        assertThat(a).isNotEqualTo(a.withRequested(BackendId.WEBGPU));
        assertThat(a).isNotEqualTo(a.inLane(LaneId.NATIVE));
        assertThat(a.inputKey()).isEqualTo(a.withRequested(BackendId.WEBGPU).inputKey()).isEqualTo(a.inLane(LaneId.NATIVE).inputKey());
        CaseId fp16 = new CaseId(a.family(), a.model(), a.modelSha256(), a.inputSet(), a.inputShapes(), Precision.FP16,
                a.batchSize(), a.requested(), a.lane());
        assertThat(fp16).isNotEqualTo(a);
        assertThat(fp16.inputKey()).isNotEqualTo(a.inputKey());
        assertThat(a.cellOn("h1")).isEqualTo(a.cellOn("h1")).isNotEqualTo(a.cellOn("h2"));
    }

    @Test
    void lanesAndPrecisionsParse() {
        assertThat(LaneId.parse(null)).isEqualTo(LaneId.NATIVE);
        assertThat(LaneId.parse("native").side()).isEqualTo(LaneSide.NATIVE);
        assertThat(LaneId.parse("chrome-headless").browser()).isEqualTo(BrowserKind.CHROME);
        assertThat(LaneId.parse("netscape").browser()).isEqualTo(BrowserKind.OTHER);
        assertThat(Precision.parse("INT8")).isEqualTo(Precision.INT8);
        assertThat(Precision.parse("q4f16")).isEqualTo(Precision.Q4F16);
        assertThat(Precision.ofSuffix("_quantized")).contains(Precision.Q8); // transformers.js's model_quantized.onnx
        assertThat(Precision.ofSuffix("")).contains(Precision.FP32);
        assertThat(Precision.ofSuffix("_O4")).isEmpty();
        assertThatThrownBy(() -> Precision.parse("int4")).isInstanceOf(AccelbridgeException.class)
                .satisfies(e -> assertThat(((AccelbridgeException) e).oneLine()).contains("Unknown precision 'int4'",
                        "use one of: fp32, fp16, int8, q8, uint8, q4, q4f16, bnb4"));
        assertThatThrownBy(() -> BrowserKind.parse("safari")).as("Accelbridge cannot launch Safari")
                .hasMessageContaining("Unknown browser");
        assertThatThrownBy(() -> new CaseId(ModelFamily.TEXT, "m", null, "x", null, Precision.FP32, 0, BackendId.CPU, LaneId.NATIVE))
                .hasMessageContaining("batch size must be 1..4096, got 0");
        assertThatThrownBy(() -> new CaseId(ModelFamily.TEXT, "m", null, "x", null, Precision.FP32, 5000, BackendId.CPU, LaneId.NATIVE))
                .as("a batch the store's readers refuse is refused where the case is made").hasMessageContaining("batch size must be 1..4096, got 5000");
    }

    @Test
    void theBatchIsTheLeadingDimensionOfTheFirstInputOfRankTwoWhereTheBatchAxisCanHoldIt() {
        assertThat(CaseId.batchOfShapes(java.util.List.of(new long[] {7}, new long[] {4, 16}))).isEqualTo(4);
        assertThat(CaseId.batchOfShapes(java.util.List.of(new long[] {4096, 3}))).isEqualTo(4096);
        assertThat(CaseId.batchOfShapes(java.util.List.of(new long[] {70000, 4}))).as("rows of one input, not a batch").isEqualTo(1);
        assertThat(CaseId.batchOfShapes(java.util.List.of(new long[] {0, 4}))).isEqualTo(1);
        java.util.List<long[]> unknown = new java.util.ArrayList<>();
        unknown.add(null);
        assertThat(CaseId.batchOfShapes(unknown)).isEqualTo(1);
    }
}
