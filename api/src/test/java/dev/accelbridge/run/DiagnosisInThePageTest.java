package dev.accelbridge.run;

import dev.accelbridge.bridge.BridgeOptions;
import dev.accelbridge.bridge.BridgeServer;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.LaunchOptions;
import dev.accelbridge.browser.provider.BrowserBackendProvider;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.RuntimeOptions;
import dev.accelbridge.suites.HalfPrecisionModels;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Diagnosis beyond a wrong output, in the page (onnxruntime-web on wasm, against native ONNX Runtime). Where half
 * precision ran: wasm is ONNX Runtime's CPU provider, which inserts casts to float32 around the nodes it has no float16
 * kernel for, so an fp16 variant that runs there is labelled computed in float32 in part, read off the profiler's node
 * events of one more untimed session (its fp32 original is not checked). Finite but computed through an overflow: the
 * bisection names the first non-finite intermediate.
 */
@RequiresBrowser
class DiagnosisInThePageTest {
    @TempDir
    static Path dir;
    static BridgeServer server;
    static BrowserBackendProvider chromium;

    @BeforeAll
    static void start() {
        server = BridgeServer.start(BridgeOptions.defaults());
        chromium = new BrowserBackendProvider(server, LaunchOptions.builder().browser(BrowserKind.CHROMIUM).driver(DriverKind.PLAYWRIGHT).build());
    }

    @AfterAll
    static void stop() {
        chromium.close();
        server.close();
    }

    private static Execution wasm(ModelCase mc) {
        return chromium.execute(new ExecutionRequest(BackendId.WASM, mc, 0, 2, Duration.ofMinutes(1)));
    }

    @Test
    void anFp16VariantOnWasmIsLabelledComputedInFloat32() throws Exception {
        ModelCase fp16 = HalfPrecisionModels.caseOf(HalfPrecisionModels.layerNormFp16(dir), Precision.FP16, 1)
                .withRuntimeOptions(RuntimeOptions.parse("optimization=disabled"));
        Execution e = wasm(fp16);
        assertThat(e.outputs()).isNotEmpty();
        assertThat(e.analysis().computed()).isNotNull();
        assertThat(e.analysis().computed().inFloat32()).isTrue();
        assertThat(e.analysis().computed().insertedCasts()).isEqualTo(5);
        assertThat(e.analysis().computed().basis()).startsWith("onnxruntime-web's session profiler in the page: 5 inserted cast node(s)");
        assertThat(e.analysis().profile()).as("no profile was asked for: only the precision was read").isNull();

        Execution fp32 = wasm(HalfPrecisionModels.caseOf(dir.resolve("ln.onnx"), Precision.FP32, 1));
        assertThat(fp32.analysis().computed()).isNull();
    }

    /**
     * Found when tried: the fp16 LayerNorm failed to load on wasm too ("Type parameter (T) of Optype (LayerNormalization)
     * bound to different types ... LayerNormFusion"). The page now makes the session again at each lower level and says the
     * level that loads it and the optimizer, in the same words as natively; the page is fine after, its next case passes.
     */
    @Test
    void aLoadTheOptimizerBreaksInThePageNamesTheLevelThatLoadsAndTheOptimizer() throws Exception {
        ModelCase fp16 = HalfPrecisionModels.caseOf(HalfPrecisionModels.layerNormFp16(java.nio.file.Files.createDirectories(dir.resolve("page"))), Precision.FP16, 1);
        assertThatThrownBy(() -> wasm(fp16)).isInstanceOf(dev.accelbridge.core.DiagnosedLoadException.class)
                .hasMessageContaining("fails to load with optimization=all, extended, basic and loads with optimization=disabled: "
                        + "LayerNormFusion (the optimizer the rejected node's name gives) makes a graph onnxruntime-web ")
                .hasMessageContaining("bound to different types")
                .satisfies(e -> {
                    var d = ((dev.accelbridge.core.DiagnosedLoadException) e).diagnosis();
                    assertThat(d.loadsAt()).isEqualTo("disabled");
                    assertThat(d.rejectedFrom()).isEqualTo("ln_scale/Mul_7");
                    assertThat(((dev.accelbridge.core.DiagnosedLoadException) e).fix()).contains("--runtime-option optimization=disabled");
                });
        assertThat(wasm(HalfPrecisionModels.caseOf(dir.resolve("page").resolve("ln.onnx"), Precision.FP32, 1)).outputs()).isNotEmpty();
    }

    /** A kernel onnxruntime-web lacks is named as natively: the node, its op, opset, domain and its inputs' types. */
    @Test
    void aMissingKernelInThePageNamesTheNodeTheOpAndTheTypes() throws Exception {
        ModelCase bf16 = HalfPrecisionModels.caseOf(HalfPrecisionModels.bfloat16MatMul(java.nio.file.Files.createDirectories(dir.resolve("bf16"))),
                Precision.FP32, 1);
        assertThatThrownBy(() -> wasm(bf16)).isInstanceOf(dev.accelbridge.core.UnsupportedModelException.class)
                .hasMessageMatching("(?s).*no kernel for MatMul \\(opset 13, domain ai\\.onnx\\) at node 'mm/MatMul_\\d+', its inputs bfloat16, bfloat16.*");
    }

    /**
     * Finite but computed through an overflow: the LayerNorm's inputs scaled to 1e20 make its squared deviations overflow
     * float32 ('pow' is +Inf), the variance and its root are infinite, the normalized values 0, and the output is the bias
     * through the MatMul: finite. The bisection on wasm finds every value within the reference's (which overflows alike)
     * and names the first non-finite intermediate all the same.
     */
    @Test
    void aBisectionNamesTheFirstNonFiniteIntermediateBehindAFiniteOutput() throws Exception {
        ModelCase scaled = HalfPrecisionModels.caseOf(HalfPrecisionModels.layerNorm(dir), Precision.FP32, 1e20f);
        Execution run = wasm(scaled);
        assertThat(java.util.Arrays.stream(run.outputs().get(0).toDoubles()).allMatch(Double::isFinite)).as("the output hides the overflow").isTrue();
        {
            var cpu = new dev.accelbridge.nativerunner.DjlOnnxRuntimeProvider();
            var found = new dev.accelbridge.bisect.Bisector(dir.resolve("bisect"), Duration.ofMinutes(1))
                    .bisect(scaled, BackendId.WASM, chromium, cpu, t -> dev.accelbridge.core.Tolerance.defaults(BackendId.WASM, t, Precision.FP32), null);
            assertThat(found.bisection().outcome()).isEqualTo(dev.accelbridge.core.Bisection.Outcome.NOT_LOCALIZED);
            assertThat(found.bisection().nonFinite()).isNotNull();
            assertThat(found.bisection().nonFinite().value()).startsWith("pow");
            assertThat(found.bisection().nonFinite().opType()).isEqualTo("Pow");
            assertThat(found.bisection().nonFinite().count()).as("every deviation but those at the mean").isPositive()
                    .isEqualTo(found.bisection().nonFinite().onReference());
            assertThat(found.bisection().describe()).contains("the first non-finite intermediate: '" + found.bisection().nonFinite().node() + "' (Pow)",
                    "on the reference too (the graph overflows at these inputs)");
        }
        var plain = new dev.accelbridge.bisect.Bisector(dir.resolve("bisect1"), Duration.ofMinutes(1))
                .bisect(HalfPrecisionModels.caseOf(dir.resolve("ln.onnx"), Precision.FP32, 1), BackendId.WASM, chromium,
                        new dev.accelbridge.nativerunner.DjlOnnxRuntimeProvider(), t -> dev.accelbridge.core.Tolerance.defaults(BackendId.WASM, t, Precision.FP32), null);
        assertThat(plain.bisection().nonFinite()).as("inputs in range: no overflow to name").isNull();
    }
}
