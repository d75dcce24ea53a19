package dev.accelbridge.reports.render;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelCost;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.history.RegressionDetector;
import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.reports.store.ModelEntry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.accelbridge.reports.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each timed case under its device's roof, through a real store: the model's cost kept with the model, the host's clock with
 * the host, a native CPU and a wasm cell placed under the CPU's reckoned roof, a software adapter's not placed, no section
 * where no model's cost is known. Constructed results (fixtures, not measurements shown to anyone).
 */
class RoofSectionTest {
    private final HostInfo h = new HostInfo("cpu-host", "fp-cpu", "Linux", "amd64", "AMD EPYC", 2, 2, List.of("avx", "avx2", "fma"),
            1L << 34, List.of(), "21", Map.of(HostInfo.CPU_CLOCK_HZ, "2500000000")); // 2 × 2.5 GHz × 32 = 160 GFLOP/s
    @TempDir
    Path dir;

    private Matrix matrix(List<ModelEntry> models, List<java.util.function.Function<String, RunResult>> results) throws Exception {
        try (MatrixStore s = MatrixStore.open(dir.resolve("m" + System.nanoTime() + ".duckdb"))) {
            String run = s.beginRun(h, Map.of("accelbridge", "0.1.0"), "{}");
            s.recordModels(models);
            results.forEach(f -> s.write(f.apply(run)));
            s.finishRun(run);
            return MatrixBuilder.build(s, java.util.Optional.of(run), RegressionDetector.defaults());
        }
    }

    private static String text(Section.Row r) {
        return String.join(" | ", r.cells().stream().map(Section.Entry::text).toList());
    }

    @Test
    void nativeCpuAndWasmArePlacedUnderTheCpusRoofWithItsBasis() throws Exception {
        // 0.8 GFLOP an item at 10 ms: 80 GFLOP/s, half the roof; 20 ms on wasm: a quarter
        Matrix m = matrix(List.of(new ModelEntry("sha-bert", "bert", 17, List.of("MatMul"), ModelCost.of(0.8e9, 400_000_000L))), List.of(
                run -> passed(run, t(0), h, ModelFamily.TEXT, "bert", BackendId.CPU, nativeProv(h), samples(10, 0.0, 40, 10)),
                run -> passed(run, t(1), h, ModelFamily.TEXT, "bert", BackendId.WASM, chromiumProv(h, false), samples(20, 0.0, 40, 20)),
                run -> passed(run, t(2), h, ModelFamily.TEXT, "bert", BackendId.WEBGPU, chromiumProv(h, true), samples(30, 0.0, 40, 30))));
        Section s = RoofSection.of(m);
        assertThat(s.hidden()).isFalse();
        assertThat(s.table().rows()).as("the software adapter's figure is not placed").hasSize(2);
        List<String> rows = s.table().rows().stream().map(RoofSectionTest::text).toList();
        assertThat(rows).filteredOn(r -> r.contains("| cpu")).singleElement().satisfies(r -> assertThat(r).contains("80.0 GFLOP/s",
                "40.0 GB/s", "160.0 GFLOP/s", "50 % of the compute roof", "memory bandwidth unknown", "2 cores × 2.50 GHz"));
        assertThat(rows).filteredOn(r -> r.contains("| wasm")).singleElement().satisfies(r -> assertThat(r).contains("40.0 GFLOP/s",
                "20.0 GB/s", "25 % of the compute roof"));
    }

    @Test
    void noModelCostIsNoSection() throws Exception {
        Matrix m = matrix(List.of(new ModelEntry("sha-bert", "bert", 17, List.of("MatMul"))), List.of(
                run -> passed(run, t(0), h, ModelFamily.TEXT, "bert", BackendId.CPU, nativeProv(h), samples(10, 0.0, 40, 10))));
        assertThat(RoofSection.of(m).hidden()).isTrue();
    }
}
