package dev.accelbridge.browser.provider;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.bridge.hub.ExecutionProviderSpec;
import dev.accelbridge.bridge.protocol.PageProbe;
import dev.accelbridge.bridge.protocol.Profiled;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.ComputedPrecision;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.TensorSpec;
import dev.accelbridge.core.UnsupportedModelException;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The code that decides half precision on a GPU, on constructed probe and profiler answers (pure logic): this machine's
 * SwiftShader has no {@code shader-f16}, so a real GPU's answer is built here. An adapter with the feature runs fp16 and
 * q4f16 variants; one without is UNSUPPORTED with its features as the evidence; where the profiler shows casts ONNX
 * Runtime inserted, the variant was computed in float32 in part, and where it shows none, in its declared type.
 */
class HalfPrecisionDecisionTest {
    private static final ModelSpec MODEL = new ModelSpec(ModelFamily.TEXT, "half", null, "sha", 17, 0, List.of("MatMul"),
            List.of(new TensorSpec("x", DType.FLOAT32, new long[] {1, 4})), List.of(new TensorSpec("y", DType.FLOAT32, new long[] {1, 4})),
            "test", Double.NaN);

    private static PageProbe adapter(String description, String... features) throws Exception {
        return seenBy("x", description, features);
    }

    private static PageProbe seenBy(String userAgent, String description, String... features) throws Exception {
        String f = String.join("\",\"", features);
        return PageProbe.parse(new ObjectMapper().readTree("{\"userAgent\":\"" + userAgent + "\",\"webgpu\":{\"present\":true,\"adapterFound\":true,"
                + "\"vendor\":\"nvidia\",\"architecture\":\"hopper\",\"description\":\"" + description + "\",\"isFallbackAdapter\":false,"
                + "\"features\":[" + (features.length == 0 ? "" : "\"" + f + "\"") + "],\"limits\":{}}}"));
    }

    @Test
    void anAdapterWithShaderF16RunsHalfPrecisionVariantsAndOneWithoutIsUnsupportedWithItsFeatures() throws Exception {
        PageProbe gpu = adapter("NVIDIA H200", "shader-f16", "timestamp-query");
        for (Precision p : List.of(Precision.FP16, Precision.Q4F16, Precision.FP32)) {
            LaneFit.checkPrecision(BackendId.WEBGPU, MODEL, p, gpu, "chromium 156"); // no refusal
        }
        PageProbe noF16 = adapter("NVIDIA H200", "timestamp-query");
        for (Precision p : List.of(Precision.FP16, Precision.Q4F16)) {
            assertThatThrownBy(() -> LaneFit.checkPrecision(BackendId.WEBGPU, MODEL, p, noF16, "chromium 156"))
                    .isInstanceOf(UnsupportedModelException.class)
                    .hasMessageContaining("lacks the shader-f16 feature (its features: timestamp-query)")
                    .satisfies(e -> assertThat(((UnsupportedModelException) e).status()).isEqualTo(Status.UNSUPPORTED));
        }
        LaneFit.checkPrecision(BackendId.WEBGPU, MODEL, Precision.FP32, noF16, "chromium 156");
        LaneFit.checkPrecision(BackendId.WASM, MODEL, Precision.FP16, noF16, "chromium 156"); // wasm needs no GPU feature
    }

    @Test
    void chromeOnLinuxWithholdingItOnNvidiaIsSaidAsSoWithTheOptInVariant() throws Exception {
        PageProbe linux = seenBy("Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/156.0.0.0 Safari/537.36",
                "NVIDIA H200", "timestamp-query");
        assertThatThrownBy(() -> LaneFit.checkPrecision(BackendId.WEBGPU, MODEL, Precision.Q4F16, linux, "chromium 156"))
                .isInstanceOf(UnsupportedModelException.class)
                .hasMessageContaining("lacks the shader-f16 feature")
                .hasMessageContaining("crbug.com/42251215")
                .hasMessageContaining("--enable-dawn-features=vulkan_enable_f16_on_nvidia");
        assertThatThrownBy(() -> LaneFit.checkPrecision(BackendId.WEBGPU, MODEL, Precision.FP16, adapter("NVIDIA H200", "timestamp-query"),
                "chromium 156")).as("no Linux Chrome in the user agent: not said").isInstanceOf(UnsupportedModelException.class)
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("crbug"));
    }

    @Test
    void whereHalfPrecisionRanIsReadOnWasmAndWebGpuAndNotInsideAWebNnPartition() {
        ModelCase fp16 = new ModelCase(MODEL, "x", List.of(NamedTensor.ofFloats("x", new long[] {1, 4}, new float[4])), Optional.empty())
                .withPrecision(Precision.FP16);
        assertThat(PageAnalysis.readsComputedPrecision(fp16, ExecutionProviderSpec.of(BackendId.WASM))).isTrue();
        assertThat(PageAnalysis.readsComputedPrecision(fp16, ExecutionProviderSpec.of(BackendId.WEBGPU))).isTrue();
        assertThat(PageAnalysis.readsComputedPrecision(fp16, ExecutionProviderSpec.of(BackendId.WEBNN_GPU))).isFalse();
        assertThat(PageAnalysis.readsComputedPrecision(fp16.withPrecision(Precision.FP32), ExecutionProviderSpec.of(BackendId.WASM))).isFalse();
    }

    @Test
    void theProfilersNodesSayWhetherCastsWereInsertedEachCountedOnce() {
        Profiled.NodeEvent mm = new Profiled.NodeEvent("mm", "MatMul", "WebGpuExecutionProvider", 10.0, 1.0);
        Profiled.NodeEvent cast = new Profiled.NodeEvent(ComputedPrecision.INSERTED_CAST + "mm", "Cast", "CPUExecutionProvider", 1.0, 2.0);
        // a GPU that computes fp16 natively: no cast, in its declared type
        ComputedPrecision onGpu = PageAnalysis.computed(profiled(List.of(mm, mm)));
        assertThat(onGpu.inFloat32()).isFalse();
        assertThat(onGpu.basis()).contains("0 inserted cast node(s) among the 1 nodes");
        // two runs of the same inserted cast: one cast
        ComputedPrecision inFloat32 = PageAnalysis.computed(profiled(List.of(mm, cast, mm, cast)));
        assertThat(inFloat32.insertedCasts()).isEqualTo(1);
        // a user's own Cast is no inserted one; no events or no profile: unknown, never "declared"
        assertThat(PageAnalysis.computed(profiled(List.of(new Profiled.NodeEvent("to_f32", "Cast", "CPUExecutionProvider", 1.0, 1.0))))
                .inFloat32()).isFalse();
        assertThat(PageAnalysis.computed(profiled(List.of()))).isNull();
        assertThat(PageAnalysis.computed(null)).isNull();
    }

    @Test
    void jsepsLayerNormComputedInFloat32InsideIsSaidNotCalledItsDeclaredType() {
        // found when tried: JSEP computes LayerNorm in float32 inside its kernel, yet its fp16 case was labelled "computed in
        // its declared type"
        Profiled.NodeEvent mm = new Profiled.NodeEvent("mm", "MatMul", "JsExecutionProvider", 10.0, 1.0);
        Profiled.NodeEvent ln = new Profiled.NodeEvent("ln", "LayerNormalization", "JsExecutionProvider", 5.0, 2.0);
        ComputedPrecision jsep = PageAnalysis.computed(profiled(List.of(mm, ln, ln)));
        assertThat(jsep.inFloat32()).as("no cast was inserted").isFalse();
        assertThat(jsep.float32Inside()).containsExactly("LayerNormalization");
        assertThat(jsep.describe()).doesNotContain("computed in its declared type")
                .contains("LayerNormalization compute in float32 inside their kernels");
        // the native WebGPU EP's LayerNorm is not read from its source here: nothing is claimed for it
        Profiled.NodeEvent ep = new Profiled.NodeEvent("ln", "LayerNormalization", "WebGpuExecutionProvider", 5.0, 2.0);
        assertThat(PageAnalysis.computed(profiled(List.of(ep))).float32Inside()).isEmpty();
    }

    @Test
    void eachJsepKernelSaidToComputeInFloat32DoesSoInTheShippedBundle() throws Exception {
        java.nio.file.Path bundle = java.nio.file.Path.of("src/main/web/node_modules/onnxruntime-web/dist/ort.all.mjs");
        List<String> lines = java.nio.file.Files.readAllLines(bundle);
        for (var e : JsepFloat32Kernels.PROGRAMS.entrySet()) {
            int at = -1;
            for (int i = 0; i < lines.size(); i++) {
                if (lines.get(i).contains("name: \"" + e.getValue() + "\"")) {
                    at = i;
                    break;
                }
            }
            assertThat(at).as("%s's program %s in %s", e.getKey(), e.getValue(), bundle).isNotNegative();
            String program = String.join("\n", lines.subList(Math.max(0, at - 90), at));
            assertThat(program).as("%s: its shader widens to f32", e.getKey())
                    .containsAnyOf("castToF32(", "fillVector(\"f32\"", "f32Type}(0)");
        }
    }

    private static Profiled profiled(List<Profiled.NodeEvent> nodes) {
        return new Profiled("s", 1, List.of(1.0), nodes, List.of(), List.of(), null);
    }
}
