package dev.accelbridge.bridge;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Parity;
import dev.accelbridge.nativerunner.DjlOnnxRuntimeProvider;
import dev.accelbridge.suites.SuiteCatalog;
import dev.accelbridge.suites.SuiteOptions;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Shared by the browser test classes: the three suites (generated once per JVM into target/) and their native CPU
 * reference outputs from ONNX Runtime through DJL.
 */
public final class SuiteFixtures {
    private static final Path CACHE = Path.of("target", "suite-cache").toAbsolutePath();
    private static SuiteCatalog catalog;
    private static DjlOnnxRuntimeProvider nativeCpu;
    private static final Map<String, List<NamedTensor>> REFERENCE = new ConcurrentHashMap<>();

    private SuiteFixtures() {
    }

    /**
     * The suite's cases of {@code family}: the text-generation suite's all, another's single passes (its speech-to-text
     * generation is not one run to compare).
     */
    public static synchronized List<ModelCase> cases(ModelFamily family) {
        if (catalog == null) {
            catalog = SuiteCatalog.create(SuiteOptions.defaults(CACHE));
        }
        return catalog.cases(family).stream().filter(c -> family == ModelFamily.TEXT_GENERATION || c.scenario() instanceof dev.accelbridge.core.Scenario.SinglePass).toList();
    }

    /** Every case of the three suites. */
    public static List<ModelCase> allCases() {
        List<ModelCase> out = new ArrayList<>();
        for (ModelFamily f : List.of(ModelFamily.TEXT, ModelFamily.VISION, ModelFamily.AUDIO)) {
            out.addAll(cases(f));
        }
        return out;
    }

    public static synchronized List<NamedTensor> reference(ModelCase mc) {
        return REFERENCE.computeIfAbsent(mc.key() + "@" + mc.model().sha256(), k -> {
            if (nativeCpu == null) {
                nativeCpu = new DjlOnnxRuntimeProvider();
            }
            return nativeCpu.execute(new ExecutionRequest(BackendId.CPU, mc, 0, 1, Duration.ofSeconds(60))).outputs();
        });
    }

    /** Runs {@code mc} on {@code backend} once (no warm-up, one timed run) and checks it against native CPU. */
    public static Execution runAndCompareOnce(BackendProvider browser, BackendId backend, ModelCase mc) {
        Execution e = browser.execute(new ExecutionRequest(backend, mc, 0, 1, Duration.ofSeconds(120)));
        Parity p = Parity.compare(reference(mc), e.outputs(),
                dt -> dev.accelbridge.core.Tolerance.defaults(backend, dt, dev.accelbridge.core.Precision.FP32), "native-cpu");
        assertThat(p.within()).as("%s on %s: %s", mc.key(), backend, p).isTrue();
        return e;
    }

    /** Runs {@code mc} on {@code backend} for its verdict (no warm-up, 3 timed runs) and checks it against native CPU. */
    public static Execution runAndCompare(BackendProvider browser, BackendId backend, ModelCase mc) {
        Execution e = browser.execute(new ExecutionRequest(backend, mc, 0, 3, Duration.ofSeconds(120), null, null, 0, 0, null, null,
                dev.accelbridge.core.SamplingDepth.VERDICT));
        Parity p = Parity.compare(reference(mc), e.outputs(),
                dt -> dev.accelbridge.core.Tolerance.defaults(backend, dt, dev.accelbridge.core.Precision.FP32), "native-cpu");
        assertThat(p.within()).as("%s on %s: %s", mc.key(), backend, p).isTrue();
        assertThat(e.timings().samplesMs()).hasSize(3);
        assertThat(java.util.Arrays.stream(e.timings().samplesMs()).allMatch(s -> s >= 0 && Double.isFinite(s))).isTrue();
        assertThat(e.timings().loadMs()).isPositive();
        assertThat(e.provenance().runtimeVersions()).containsEntry("onnxruntime-web", "1.30.0");
        System.out.printf("%-28s %-10s load %8.1f ms first %8.2f ms p50 %8.3f ms maxAbs %.2e cos %.8f %s%n", mc.key(), backend,
                e.timings().loadMs(), e.timings().firstMs(), e.timings().p50Ms(), p.maxAbsErr(), p.cosine(), e.warnings());
        return e;
    }
}
