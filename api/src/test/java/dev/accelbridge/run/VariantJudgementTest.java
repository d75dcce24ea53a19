package dev.accelbridge.run;

import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.fallback.Chain;
import dev.accelbridge.fallback.FallbackPolicy;
import dev.accelbridge.nativerunner.HostDetector;
import dev.accelbridge.suites.Batching;
import dev.accelbridge.suites.ModelSize;
import dev.accelbridge.suites.OnnxModels;
import dev.accelbridge.suites.SuiteCatalog;
import dev.accelbridge.suites.SuiteOptions;
import dev.accelbridge.suites.onnx.OnnxTensors;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;
import dev.accelbridge.suites.precision.Variants;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How a variant is judged, with real ONNX Runtime: against its own native CPU run (its verdict), and against the fp32
 * model's native CPU reference at the variant's tolerance (its fidelity, a figure beside the verdict), so a backend that
 * computes the variant wrongly is WRONG_OUTPUT and a lossy conversion is said to be lossy, not wrong.
 */
class VariantJudgementTest {
    @TempDir
    static Path dir;
    static NativeProviders natives;
    static HostInfo host;
    static ModelCase fp32;
    static ModelCase int8;
    static ModelCase broken;
    static Reference fp32Reference;
    static Reference int8Run;
    static Reference brokenRun;

    @BeforeAll
    static void setUp() throws Exception {
        natives = NativeProviders.load();
        host = HostDetector.detect();
        fp32 = Batching.atBatch(SuiteCatalog.create(new SuiteOptions(dir, ModelSize.SMALL, 42)).cases(ModelFamily.TEXT).get(0), 1)
                .orElseThrow();
        int8 = new Variants(dir).derive(fp32, Precision.INT8);
        // a deliberately broken conversion: one weight scale off by 3x, as a converter bug would leave it
        ModelProto m = OnnxTensors.readModel(int8.model().path());
        var g = m.getGraph().toBuilder();
        for (int i = 0; i < g.getInitializerCount(); i++) {
            TensorProto t = g.getInitializer(i);
            if (t.getName().endsWith("_quantized_scale")) {
                g.setInitializer(i, t.toBuilder().setFloatData(0, t.getFloatData(0) * 3));
                break;
            }
        }
        Path bad = dir.resolve("broken-int8.onnx");
        Files.write(bad, m.toBuilder().setGraph(g).build().toByteArray());
        broken = new ModelCase(OnnxModels.inspect(bad, fp32.model().family(), fp32.model().name(), "test"), fp32.inputSet(),
                fp32.inputs(), Optional.empty(), fp32.freeDims(), Precision.INT8);
        fp32Reference = reference(fp32);
        int8Run = reference(int8);
        brokenRun = reference(broken);
    }

    @AfterAll
    static void tearDown() {
        if (natives != null) {
            natives.close();
        }
    }

    private static Reference reference(ModelCase mc) {
        return Reference.nativeCpu(natives.forBackend(BackendId.CPU).execute(new ExecutionRequest(BackendId.CPU, mc, 0, 1,
                Duration.ofMinutes(1))).outputs());
    }

    private static RunResult judge(ModelCase mc, Reference reference) {
        CaseExecutor ex = new CaseExecutor(0, 2, Duration.ofSeconds(60), FallbackPolicy.ON_FAILURE, CaseExecutor.CostLookup.NONE);
        Map<BackendId, Availability> probes = Map.of(BackendId.CPU, natives.forBackend(BackendId.CPU).probe(BackendId.CPU));
        CaseContext ctx = new CaseContext("test-run", host, Provenance.of(null, null, "djl", null, null, List.of(), Map.of()), LaneId.NATIVE);
        return ex.run(ctx, mc, Chain.of(BackendId.CPU), probes, natives::forBackend, reference).result();
    }

    @Test
    void aFaithfulInt8VariantPassesAgainstTheFp32Reference() {
        RunResult r = judge(int8, fp32Reference.withVariantRun(int8Run, Precision.INT8));
        assertThat(r.status()).as(r.reason()).isEqualTo(Status.PASSED);
        assertThat(r.id().precision()).isEqualTo(Precision.INT8);
        assertThat(r.parity().orElseThrow().against()).isEqualTo("native-cpu fp32");
        assertThat(r.parity().orElseThrow().maxAbsErr()).as("int8 differs from fp32 by more than fp32 noise").isGreaterThan(1e-4);
        assertThat(r.variantParity().against()).isEqualTo("native-cpu int8");
        assertThat(r.variantParity().maxAbsErr()).as("the same variant on the same runtime").isLessThan(1e-5);
    }

    @Test
    void aLossyVariantThatTheBackendComputesAsItsOwnRunDoesIsNotWrongOutputButSaysItsLoss() {
        // found when tried: a published q8 embedder was WRONG_OUTPUT on every backend that computed it right, for the dtype's
        // designed loss against fp32; the verdict is the backend against the same file's native run, the loss a figure beside it
        RunResult r = judge(broken, fp32Reference.withVariantRun(brokenRun, Precision.INT8));
        assertThat(r.status()).as(r.reason()).isEqualTo(Status.PASSED);
        assertThat(r.defect()).isFalse();
        assertThat(r.correctness().orElse(null)).isSameAs(r.variantParity());
        assertThat(r.variantParity().within()).isTrue();
        assertThat(r.fidelity()).get().satisfies(f -> {
            assertThat(f.lossy()).isTrue();
            assertThat(f.toFp32().against()).isEqualTo("native-cpu fp32");
        });
        assertThat(r.reason()).contains("computed as the int8 variant's own native CPU run computes it")
                .contains("lossy (the int8 variant's designed loss)");
    }

    @Test
    void anOwnRunThatCannotBeComparedIsSaidAndTheVerdictRestsOnFp32() {
        // found when tried: a generation variant whose generations differed in count from its native run's lost the
        // comparison without a word
        RunResult r = judge(int8, fp32Reference.withVariantRun(Reference.nativeCpu(List.of()), Precision.INT8));
        assertThat(r.variantParity()).isNull();
        assertThat(r.reason()).contains("could not be compared with the int8 variant's own native CPU run")
                .contains("the verdict rests on fp32 native");
    }

    @Test
    void theVariantsOwnNativeCpuRunIsItsReferenceAndNeverWrongOutputForItsLoss() {
        RunResult r = judge(broken, fp32Reference.forVariantItself());
        assertThat(r.status()).as(r.reason()).isEqualTo(Status.PASSED);
        assertThat(r.correctness().orElse(null)).as("nothing to judge it against: it is the reference").isNull();
        assertThat(r.fidelity()).get().satisfies(f -> assertThat(f.lossy()).isTrue());
        assertThat(r.reason()).contains("the int8 variant's own native CPU run: its reference").contains("lossy");
    }

    @Test
    void aBackendThatDiffersFromTheVariantsOwnRunIsBlamed() {
        // the broken model's outputs compared with the faithful variant's native run: this "backend" gets the variant wrong
        RunResult r = judge(broken, fp32Reference.withVariantRun(int8Run, Precision.INT8));
        assertThat(r.status()).isEqualTo(Status.WRONG_OUTPUT);
        assertThat(r.reason()).startsWith("this backend gets the int8 variant wrong: it differs from the variant's own native CPU run");
        assertThat(r.variantParity().within()).isFalse();
        assertThat(r.defect()).isTrue();
        assertThat(r.correctness().orElse(null)).isSameAs(r.variantParity());
        assertThat(r.reason()).as("a distance from fp32 that holds this backend's own error is no designed loss")
                .doesNotContain("designed loss").contains("this backend's own difference");
    }

    @Test
    void withoutItsOwnRunsComparisonAVariantsDistanceFromFp32IsNeitherADefectNorItsDesignedLoss() {
        // found when tried: the same loss was PASSED natively and a defect on wasm, printed as the variant's designed loss,
        // when the comparison with the variant's own native run was missing
        RunResult nat = judge(broken, fp32Reference.withVariantRun(Reference.nativeCpu(List.of()), Precision.INT8));
        assertThat(nat.status()).isEqualTo(Status.WRONG_OUTPUT);
        RunResult elsewhere = RunResult.of(nat.runId(), nat.startedAt(), nat.id(), new Outcome.Ran(BackendId.WASM, nat.timings().orElse(null), Optional.ofNullable(nat.parity().orElse(null))), Status.WRONG_OUTPUT,
                null, nat.provenance(), nat.memory(), List.of(), List.of());
        assertThat(elsewhere.variantParity()).isNull();
        assertThat(elsewhere.defectFinding()).isEqualTo(dev.accelbridge.core.Defect.UNKNOWN);
        assertThat(elsewhere.defect()).isFalse();
        assertThat(new Bisections(dir, Duration.ofSeconds(5), null, null, false).wanted(elsewhere))
                .as("bisection against the same file's native CPU run is what can tell").isTrue();
        String reason = VariantVerdicts.said(elsewhere, false).reason();
        assertThat(reason).doesNotContain("designed loss").contains("not told apart");
        var found = dev.accelbridge.core.Bisection.without(dev.accelbridge.core.Bisection.Outcome.FOUND, BackendId.WASM, "native-cpu",
                0.1, 3, "a node diverges");
        assertThat(elsewhere.withAnalysis(elsewhere.analysis().withBisection(found)).defectFinding())
                .as("a bisection against the same file's native run that finds a node tells it").isEqualTo(dev.accelbridge.core.Defect.FOUND);
    }
}
