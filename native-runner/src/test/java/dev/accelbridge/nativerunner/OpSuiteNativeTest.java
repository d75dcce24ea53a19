package dev.accelbridge.nativerunner;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.OpVariant;
import dev.accelbridge.suites.ModelSize;
import dev.accelbridge.suites.SuiteCatalog;
import dev.accelbridge.suites.SuiteOptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The op suite against real ONNX Runtime on the CPU, its reference: every single-op model loads and runs natively,
 * except the variants listed here with ONNX Runtime's own reason (a kernel the CPU provider does not register). A case
 * that fails natively has no reference in a run, so a new failure here is a suite defect, caught before any browser.
 */
class OpSuiteNativeTest {
    /** Variants the CPU provider of the pinned ONNX Runtime has no kernel for, with the start of its message. */
    static final Map<String, String> NATIVE_GAPS = Map.of(
            "GlobalLpPool-22-f32", "Could not find an implementation for GlobalLpPool(22) node");

    @TempDir
    Path dir;

    @Test
    void everyOpCaseRunsOnNativeCpuExceptTheKnownGaps() {
        SuiteCatalog catalog = SuiteCatalog.create(new SuiteOptions(dir, ModelSize.SMALL, SuiteOptions.DEFAULT_SEED));
        List<ModelCase> cases = catalog.cases(ModelFamily.OPS);
        assertThat(cases).hasSizeGreaterThan(200);
        DjlOnnxRuntimeProvider provider = new DjlOnnxRuntimeProvider();
        Map<String, String> failed = new LinkedHashMap<>();
        for (ModelCase mc : cases) {
            assertThat(OpVariant.parse(mc.model().name())).as(mc.model().name()).isPresent();
            try {
                var e = provider.execute(new ExecutionRequest(BackendId.CPU, mc, 0, 1, Duration.ofSeconds(30)));
                assertThat(e.outputs()).as(mc.model().name()).isNotEmpty();
            } catch (RuntimeException e) {
                failed.put(mc.model().name(), String.valueOf(e.getMessage()).lines().findFirst().orElse(""));
            }
        }
        failed.forEach((k, v) -> System.out.println("NATIVE FAILED " + k + ": " + v));
        assertThat(failed.keySet()).containsExactlyInAnyOrderElementsOf(NATIVE_GAPS.keySet());
        NATIVE_GAPS.forEach((model, why) -> assertThat(failed.get(model)).contains(why));
    }
}
