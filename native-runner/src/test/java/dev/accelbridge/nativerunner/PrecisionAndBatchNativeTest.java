package dev.accelbridge.nativerunner;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.Tolerance;
import dev.accelbridge.suites.Batching;
import dev.accelbridge.suites.ModelSize;
import dev.accelbridge.suites.OnnxModels;
import dev.accelbridge.suites.SuiteCatalog;
import dev.accelbridge.suites.SuiteOptions;
import dev.accelbridge.suites.onnx.OnnxTensors;
import dev.accelbridge.suites.precision.Variants;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The suites' models converted to fp16 and int8 load and run in real ONNX Runtime; each variant differs from fp32 by
 * more than fp32 noise (the fp32 CPU tolerance) and stays within its documented tolerance; and a batch of 4 gives,
 * item by item, what each item gives alone.
 */
class PrecisionAndBatchNativeTest {
    @TempDir
    static Path cache;
    static final DjlOnnxRuntimeProvider provider = new DjlOnnxRuntimeProvider();

    private static Execution run(ModelCase c) {
        return provider.execute(new ExecutionRequest(BackendId.CPU, c, 0, 1, Duration.ofMinutes(2)));
    }

    private static ModelCase batch1(ModelFamily f) {
        SuiteCatalog catalog = SuiteCatalog.create(new SuiteOptions(cache, ModelSize.SMALL, 42));
        return Batching.atBatch(catalog.cases(f).get(0), 1).orElseThrow();
    }

    @ParameterizedTest
    @EnumSource(value = ModelFamily.class, names = {"TEXT", "VISION", "AUDIO"})
    void variantsRunDifferFromFp32ByMoreThanNoiseAndStayWithinTheirTolerance(ModelFamily f) {
        ModelCase fp32 = batch1(f);
        List<NamedTensor> reference = run(fp32).outputs();
        Variants variants = new Variants(cache);
        for (Precision p : List.of(Precision.FP16, Precision.INT8)) {
            ModelCase v = variants.derive(fp32, p);
            assertThat(v.precision()).isEqualTo(p);
            assertThat(v.model().sha256()).isNotEqualTo(fp32.model().sha256());
            assertThat(OnnxModels.precision(OnnxTensors.readModel(v.model().path()))).as("the variant reads as %s", p).isEqualTo(p);
            Parity noise = Parity.compare(reference, run(v).outputs(), dt -> Tolerance.defaults(BackendId.CPU, dt, Precision.FP32), "fp32");
            Parity own = Parity.compare(reference, run(v).outputs(), dt -> Tolerance.defaults(BackendId.CPU, dt, p), "fp32");
            assertThat(noise.within()).as("%s %s differs from fp32 by more than fp32 noise: %s", f, p, noise.describe()).isFalse();
            assertThat(own.within()).as("%s %s within its tolerance: %s", f, p, own.describe()).isTrue();
            assertThat(own.cosine()).isGreaterThan(0.99);
        }
    }

    @ParameterizedTest
    @EnumSource(value = ModelFamily.class, names = {"TEXT", "VISION", "AUDIO"})
    void batchOfFourEqualsFourBatchesOfOneItemByItem(ModelFamily f) {
        ModelCase one = batch1(f);
        ModelCase pool = SuiteCatalog.create(new SuiteOptions(cache, ModelSize.SMALL, 42)).cases(f).get(0);
        assertThat(Batching.batchOf(pool)).as("the suite feeds distinct items").isGreaterThan(1);
        ModelCase four = Batching.atBatch(pool, 4).orElseThrow();
        assertThat(Batching.batchOf(four)).isEqualTo(4);
        List<NamedTensor> batched = run(four).outputs();
        for (int k = 0; k < 4; k++) {
            int item = k % Batching.batchOf(pool);
            ModelCase alone = new ModelCase(one.model(), one.inputSet(),
                    pool.inputs().stream().map(t -> t.item(item)).toList(), java.util.Optional.empty(), one.freeDims());
            List<NamedTensor> single = run(alone).outputs();
            for (int o = 0; o < single.size(); o++) {
                NamedTensor got = batched.get(o).item(k);
                assertThat(got.shape()).isEqualTo(single.get(o).shape());
                Parity p = Parity.compare(List.of(single.get(o)), List.of(got),
                        dt -> Tolerance.defaults(BackendId.CPU, dt, Precision.FP32), "batch 1");
                assertThat(p.within()).as("%s item %d output %s: %s", f, k, got.name(), p.describe()).isTrue();
            }
        }
        assertThat(batched.get(0).dtype()).isEqualTo(DType.FLOAT32);
    }
}
