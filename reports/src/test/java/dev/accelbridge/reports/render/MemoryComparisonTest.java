package dev.accelbridge.reports.render;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.GpuLedger;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.MemoryUsage;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.RuntimeOptions;
import dev.accelbridge.reports.Fixtures;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** "What does this option cost in memory": a comparison by runtime options says each figure both sides measured. */
class MemoryComparisonTest {
    static final HostInfo H = Fixtures.host("alpha");

    private static RunResult at(RuntimeOptions o, MemoryUsage m, int minute) {
        RunResult r = Fixtures.passed("r1", Fixtures.t(minute), H, ModelFamily.TEXT, "bert-mini", BackendId.WEBGPU,
                Fixtures.chromiumProv(H, true), Fixtures.samples(3, 0.01, 20, minute));
        return RunResult.of(r.runId(), r.startedAt(), r.id().withRuntimeOptions(o), r.outcome(), r.status(), r.reason(), r.provenance(), m, r.fallbackPath(), r.warnings());
    }

    @Test
    void theGpuPeakOfEachSideAndTheFiguresBothMeasured() {
        MemoryUsage cpu = Fixtures.MEASURED_MEMORY;
        MemoryUsage gpu = cpu.withGpu(new GpuLedger(12_711_200, 13_000_000, 0, 4_194_304, 20, 1L << 30, 1L << 30)).withHeaps(-1, -1, -1);
        Comparison c = Comparison.of(Comparison.By.RUNTIME_OPTIONS, "default", "outputs=gpu-buffer",
                List.of(at(RuntimeOptions.DEFAULT, cpu, 0)), List.of(at(RuntimeOptions.parse("outputs=gpu-buffer"), gpu, 1)));
        assertThat(c.rows()).singleElement().satisfies(r -> {
            assertThat(r.memoryChange()).isEqualTo("GPU peak 6.1 MiB → 12.1 MiB (×2.00), renderer 650.5 MiB → 650.5 MiB, "
                    + "GPU process 163.2 MiB → 163.2 MiB");
            assertThat(r.memoryChange()).as("the wasm heap B did not measure is left out, not 0").doesNotContain("wasm");
        });
        assertThat(ComparisonJson.json(c).get("rows").get(0).get("b").get("gpuPeakBytes").asLong()).isEqualTo(12_711_200);
        // nothing measured on either side: nothing said
        Comparison none = Comparison.of(Comparison.By.RUNTIME_OPTIONS, "default", "outputs=gpu-buffer",
                List.of(at(RuntimeOptions.DEFAULT, MemoryUsage.UNKNOWN, 0)), List.of(at(RuntimeOptions.parse("outputs=gpu-buffer"), MemoryUsage.UNKNOWN, 1)));
        assertThat(none.rows().get(0).memoryChange()).isNull();
    }
}
