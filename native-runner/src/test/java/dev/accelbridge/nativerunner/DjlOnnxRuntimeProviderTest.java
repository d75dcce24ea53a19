package dev.accelbridge.nativerunner;

import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendException.Phase;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.BackendUnavailableException;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionFailedException;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Status;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.within;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

/** Real ONNX Runtime through DJL on this machine's CPU, on a hand-written ONNX model. */
class DjlOnnxRuntimeProviderTest {
    @TempDir
    static Path dir;
    static TinyOnnx.Mlp mlp;
    static ModelSpec spec;
    static final DjlOnnxRuntimeProvider provider = new DjlOnnxRuntimeProvider();
    static final float[] X = {1, 2, 3, 4, -1, 0.5f, 0, 2, 0.25f, -3, 1.5f, 0};

    @BeforeAll
    static void model() throws Exception {
        mlp = TinyOnnx.small();
        spec = TinyOnnx.write(mlp, dir, "tiny-mlp");
    }

    private static ModelCase caseOf(ModelSpec s, NamedTensor... inputs) {
        return new ModelCase(s, "test", List.of(inputs), Optional.empty());
    }

    private static ExecutionRequest request(BackendId b, ModelCase c, int warmups, int iterations) {
        return new ExecutionRequest(b, c, warmups, iterations, Duration.ofMinutes(1));
    }

    @Test
    void isFoundByServiceLoader() {
        List<BackendProvider> found = ServiceLoader.load(BackendProvider.class).stream()
                .map(ServiceLoader.Provider::get).toList();
        assertThat(found).anySatisfy(p -> {
            assertThat(p).isInstanceOf(DjlOnnxRuntimeProvider.class);
            assertThat(p.backends()).containsExactlyInAnyOrder(BackendId.CPU, BackendId.CUDA, BackendId.ROCM,
                    BackendId.COREML, BackendId.OPENVINO, BackendId.NATIVE_WEBGPU);
        });
        // native WebGPU is served above it, in a runner process on a library that has the EP (this one has not)
        assertThat(found).anySatisfy(p -> {
            assertThat(p).isInstanceOf(dev.accelbridge.nativerunner.process.NativeWebGpuProvider.class);
            assertThat(p.backends()).containsExactly(BackendId.NATIVE_WEBGPU);
            assertThat(p.priority()).isGreaterThan(provider.priority());
        });
    }

    @Test
    void cpuProbeIsAvailable() {
        Availability a = provider.probe(BackendId.CPU);
        assertThat(a.available()).isTrue();
        assertThat(a.evidence()).contains("CPUExecutionProvider", HostDetector.detect().cpuModel());
    }

    @Test
    void cudaProbeIsUnavailableHereWithEvidence() {
        NativeEnvironment env = DjlOnnxRuntimeProvider.environment();
        assumeFalse(env.cudaDeviceCount() > 0 && env.ortProviders().contains("CUDAExecutionProvider"),
                "this host has CUDA: " + env);
        Availability a = provider.probe(BackendId.CUDA);
        assertThat(a.available()).isFalse();
        assertThat(a.evidence()).contains("providers " + env.ortProviders(), "CUDA devices: " + env.cudaDeviceCount());
        // the ORT error from really adding the provider is kept (the Maven CPU jar has no CUDA provider)
        if (!env.ortProviders().contains("CUDAExecutionProvider")) {
            assertThat(a.evidence()).contains("CUDA");
            assertThat(env.epErrors()).containsKey(BackendId.CUDA);
        }
        assertThatThrownBy(() -> provider.execute(request(BackendId.CUDA, caseOf(spec, input(3)), 0, 1)))
                .isInstanceOfSatisfying(BackendUnavailableException.class, e -> {
                    assertThat(e.status()).isEqualTo(Status.UNAVAILABLE);
                    assertThat(e.getMessage()).isEqualTo(a.evidence());
                    assertThat(e.fix()).contains("onnxruntime_gpu");
                });
    }

    @Test
    void otherAcceleratorsAreUnavailableWithTheProviderList() {
        NativeEnvironment env = DjlOnnxRuntimeProvider.environment();
        for (BackendId b : List.of(BackendId.ROCM, BackendId.COREML, BackendId.OPENVINO)) {
            assumeFalse(env.ortProviders().contains(NativeProbe.providerName(b)), "ORT here has " + b);
            Availability a = provider.probe(b);
            assertThat(a.available()).as(b.id()).isFalse();
            assertThat(a.evidence()).contains(env.ortProviders().toString(), NativeProbe.providerName(b) + " not listed");
        }
        assertThat(provider.probe(BackendId.COREML).evidence()).containsAnyOf("CoreML needs macOS", "Mac");
    }

    private static NamedTensor input(int batch) {
        return NamedTensor.ofFloats("x", new long[] {batch, 4}, Arrays.copyOf(X, batch * 4));
    }

    @Test
    void timedIterationsGoOnUntilTheMinimumDurationAndStopAtTheCap() {
        // a tiny model: 3 iterations would take microseconds; 200 ms of them is hundreds of samples, at most the cap
        Execution e = provider.execute(request(BackendId.CPU, caseOf(spec, input(1)), 0, 3).withMinDuration(Duration.ofMillis(200)));
        double[] s = e.timings().samplesMs();
        assertThat(s.length).isGreaterThan(3).isLessThanOrEqualTo(ExecutionRequest.DURATION_SAMPLE_CAP);
        assertThat(s.length == ExecutionRequest.DURATION_SAMPLE_CAP || Arrays.stream(s).sum() >= 200)
                .as("either 200 ms of timed runs or the cap (%d samples, %.1f ms)", s.length, Arrays.stream(s).sum()).isTrue();
        // without a minimum duration, exactly the iterations asked for
        assertThat(provider.execute(request(BackendId.CPU, caseOf(spec, input(1)), 0, 3)).timings().iterations()).isEqualTo(3);
    }

    @Test
    void runsTheModelAndMatchesAHandComputedResult() {
        Execution e = provider.execute(request(BackendId.CPU, caseOf(spec, input(3)), 2, 7));
        assertThat(e.outputs()).hasSize(1);
        NamedTensor y = e.outputs().get(0);
        assertThat(y.name()).isEqualTo("y");
        assertThat(y.shape()).containsExactly(3, 2);
        double[] expected = mlp.forward(Arrays.copyOf(X, 12), 3);
        double[] got = y.toDoubles();
        for (int i = 0; i < expected.length; i++) {
            assertThat(got[i]).as("y[%d]", i).isFinite().isCloseTo(expected[i], within(1e-5));
        }
        assertThat(Arrays.stream(expected).map(Math::abs).max().orElse(0)).isGreaterThan(1e-3); // not a trivial zero output

        var t = e.timings();
        assertThat(t.iterations()).isEqualTo(7);
        assertThat(t.warmups()).isEqualTo(2);
        assertThat(Arrays.stream(t.samplesMs()).min().orElseThrow()).isPositive();
        assertThat(t.loadMs()).isPositive();
        assertThat(t.firstMs()).isPositive();
        assertThat(t.p90Ms()).as("7 samples support no p90 (36 needed)").isNaN();
        assertThat(t.p99Ms()).isNaN();
        assertThat(t.quality().p50Ci().lo()).isLessThanOrEqualTo(t.p50Ms());
        assertThat(t.quality().p50Ci().hi()).isGreaterThanOrEqualTo(t.p50Ms());
        assertThat(t.quality().timerResolutionMs()).as("measured, not assumed").isPositive().isLessThan(1);
        assertThat(t.quality().warmupMs()).isPositive();
        assertThat(t.throughputPerSec()).isPositive();

        assertThat(e.memory().rssBefore()).isPositive();
        assertThat(e.memory().rssAfter()).isPositive();
        assertThat(e.memory().rssPeak()).isGreaterThanOrEqualTo(Math.max(e.memory().rssBefore(), e.memory().rssAfter()));

        assertThat(e.provenance().driver()).isEqualTo("djl");
        assertThat(e.provenance().browser()).isNull();
        assertThat(e.provenance().adapter()).startsWith("CPU: ");
        assertThat(e.provenance().executionProviders()).contains("CPUExecutionProvider");
        assertThat(e.provenance().runtimeVersions()).containsKeys("djl", "onnxruntime", "java");
        assertThat(e.provenance().runtimeVersions().get("onnxruntime"))
                .isEqualTo(DjlOnnxRuntimeProvider.environment().ortVersion()).isNotEqualTo("1.21.1");
    }

    @Test
    void repeatedCasesAndThreadOptionsGiveTheSameOutputs() {
        DjlOnnxRuntimeProvider oneThread = new DjlOnnxRuntimeProvider(
                NativeRunnerOptions.defaults().withIntraOpThreads(1));
        Execution a = provider.execute(request(BackendId.CPU, caseOf(spec, input(2)), 0, 1));
        Execution b = oneThread.execute(request(BackendId.CPU, caseOf(spec, input(2)), 0, 1));
        assertThat(b.outputs()).isEqualTo(a.outputs());
    }

    @Test
    void truncatedModelFailsToLoadWithOrtsMessage() throws Exception {
        Path bad = dir.resolve("truncated.onnx");
        Files.write(bad, Arrays.copyOf(mlp.bytes(), mlp.bytes().length / 2));
        ModelSpec badSpec = new ModelSpec(spec.family(), "truncated", bad, "0", 13, 0, List.of(), spec.inputs(),
                spec.outputs(), "test", 1e-4);
        assertThatThrownBy(() -> provider.execute(request(BackendId.CPU, caseOf(badSpec, input(1)), 0, 1)))
                .isInstanceOfSatisfying(ExecutionFailedException.class, e -> {
                    assertThat(e.phase()).isEqualTo(Phase.LOAD);
                    assertThat(e.status()).isEqualTo(Status.FAILED);
                    assertThat(e.getMessage()).contains("Model 'truncated'", "could not be loaded by ONNX Runtime",
                            "Protobuf parsing failed");
                    assertThat(e.fix()).contains("truncated");
                });
    }

    @Test
    void missingModelFileFailsToLoad() {
        ModelSpec missing = new ModelSpec(spec.family(), "gone", dir.resolve("nope.onnx"), "0", 13, 0, List.of(),
                spec.inputs(), spec.outputs(), "test", 1e-4);
        assertThatThrownBy(() -> provider.execute(request(BackendId.CPU, caseOf(missing, input(1)), 0, 1)))
                .isInstanceOfSatisfying(ExecutionFailedException.class, e -> {
                    assertThat(e.phase()).isEqualTo(Phase.LOAD);
                    assertThat(e.getMessage()).contains("nope.onnx", "does not exist");
                });
    }

    @Test
    void wrongInputShapeNamesTheInputAndBothShapes() {
        NamedTensor wrong = NamedTensor.ofFloats("x", new long[] {1, 3}, new float[] {1, 2, 3});
        assertThatThrownBy(() -> provider.execute(request(BackendId.CPU, caseOf(spec, wrong), 0, 1)))
                .isInstanceOfSatisfying(ExecutionFailedException.class, e -> {
                    assertThat(e.phase()).isEqualTo(Phase.RUN);
                    assertThat(e.getMessage()).contains("Input 'x'", "[1, 3]", "[-1, 4]");
                });
    }

    @Test
    void wrongShapeWithoutDeclaredInputsReportsOrtsOwnWords() {
        // a spec that declares nothing: the check falls to ONNX Runtime, whose message still names the input
        ModelSpec bare = new ModelSpec(spec.family(), "bare", spec.path(), spec.sha256(), 13, 0, List.of(),
                List.of(), List.of(), "test", 1e-4);
        NamedTensor wrong = NamedTensor.ofFloats("x", new long[] {1, 3}, new float[] {1, 2, 3});
        assertThatThrownBy(() -> provider.execute(request(BackendId.CPU, caseOf(bare, wrong), 0, 1)))
                .isInstanceOfSatisfying(ExecutionFailedException.class, e -> {
                    assertThat(e.phase()).isEqualTo(Phase.RUN);
                    assertThat(e.getMessage()).contains("Model 'bare' failed to run on cpu", "input: x", "Expected: 4");
                });
    }

    @Test
    void unknownOrMissingInputIsNamed() {
        NamedTensor other = NamedTensor.ofFloats("pixels", new long[] {1, 4}, new float[4]);
        assertThatThrownBy(() -> provider.execute(request(BackendId.CPU, caseOf(spec, other), 0, 1)))
                .isInstanceOf(ExecutionFailedException.class)
                .hasMessageContaining("'pixels' is not an input of model 'tiny-mlp'")
                .hasMessageContaining("x:float32[-1, 4]");
        assertThatThrownBy(() -> provider.execute(request(BackendId.CPU, caseOf(spec), 0, 1)))
                .isInstanceOf(ExecutionFailedException.class)
                .hasMessageContaining("needs input 'x'");
    }

    @Test
    void exceededTimeoutIsATimeoutFailure() {
        ExecutionRequest r = new ExecutionRequest(BackendId.CPU, caseOf(spec, input(1)), 0, 1000, Duration.ofNanos(1));
        assertThatThrownBy(() -> provider.execute(r))
                .isInstanceOfSatisfying(ExecutionFailedException.class,
                        e -> assertThat(e.phase()).isEqualTo(Phase.TIMEOUT));
    }

    @Test
    void loadingWithAnAbsentExecutionProviderGivesOrtsExactError() {
        // execute() refuses unavailable backends at the probe; the load path itself must still explain an EP
        // failure (what a user sees when a provider is listed but its session cannot be made)
        NativeEnvironment env = DjlOnnxRuntimeProvider.environment();
        for (BackendId b : List.of(BackendId.ROCM, BackendId.OPENVINO, BackendId.COREML, BackendId.CUDA)) {
            assumeFalse(env.ortProviders().contains(NativeProbe.providerName(b)), "ORT here has " + b);
            assertThatThrownBy(() -> provider.load(b, spec).close()).as(b.id())
                    .isInstanceOfSatisfying(ExecutionFailedException.class, e -> {
                        assertThat(e.phase()).isEqualTo(Phase.LOAD);
                        assertThat(e.getMessage()).contains("could not create a session", NativeProbe.providerName(b),
                                env.epErrors().get(b).replaceAll("\\s*\\R\\s*", " ").trim());
                        assertThat(e.fix()).isEqualTo(NativeProbe.fix(b));
                    });
        }
    }
}
