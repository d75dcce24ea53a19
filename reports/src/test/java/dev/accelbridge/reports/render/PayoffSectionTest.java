package dev.accelbridge.reports.render;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.WidthSweep;
import dev.accelbridge.reports.history.RegressionDetector;
import dev.accelbridge.reports.recommend.WebGpuPayoff;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import static dev.accelbridge.reports.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Where WebGPU pays off along the width sweep, through a real store: the width from which a lane's WebGPU overtakes its
 * wasm and the native CPU; a software adapter's lane not compared; no section without a sweep on WebGPU. Constructed
 * results (fixtures, not measurements shown to anyone).
 */
class PayoffSectionTest {
    private final HostInfo h = host("gpu-host");
    @TempDir
    Path dir;

    private Matrix matrix(List<Function<String, RunResult>> results) throws Exception {
        try (dev.accelbridge.reports.store.MatrixStore s = dev.accelbridge.reports.store.MatrixStore.open(dir.resolve("m" + System.nanoTime() + ".duckdb"))) {
            String run = s.beginRun(h, Map.of("accelbridge", "0.1.0"), "{}");
            results.forEach(f -> s.write(f.apply(run)));
            s.finishRun(run);
            return MatrixBuilder.build(s, java.util.Optional.of(run), RegressionDetector.defaults());
        }
    }

    /** WebGPU at a flat 4.5 ms (dispatch-bound), wasm and native growing with the width. */
    private List<Function<String, RunResult>> sweep(boolean softwareAdapter) {
        List<Function<String, RunResult>> out = new ArrayList<>();
        int i = 0;
        for (int w : WidthSweep.WIDTHS) {
            String m = WidthSweep.name(w);
            double wasm = w / 64.0;  // 1, 2, 4, 8, 12, 16 ms
            double cpu = w / 160.0;  // 0.4 … 6.4 ms
            int k = i;
            out.add(run -> passed(run, t(3 * k), h, ModelFamily.TEXT, m, BackendId.WEBGPU, chromiumProv(h, softwareAdapter), samples(4.5, 0.01, 40, k)));
            out.add(run -> passed(run, t(3 * k + 1), h, ModelFamily.TEXT, m, BackendId.WASM, chromiumProv(h, false), samples(wasm, 0.01, 40, k)));
            out.add(run -> passed(run, t(3 * k + 2), h, ModelFamily.TEXT, m, BackendId.CPU, nativeProv(h), samples(cpu, 0.01, 40, k)));
            i++;
        }
        return out;
    }

    private static String text(Section.Row r) {
        return String.join(" | ", r.cells().stream().map(Section.Entry::text).toList());
    }

    @Test
    void theWidthFromWhichWebGpuOvertakesWasmAndNativeIsGiven() throws Exception {
        Matrix m = matrix(sweep(false));
        assertThat(PayoffSection.of(m).table().rows()).singleElement().satisfies(r -> assertThat(text(r))
                .contains("chromium@156", "nvidia ampere", "from width 512 (1.7", "from width 768 (1.0")); // the lane with its versions: two engines are two rows
        assertThat(WebGpuPayoff.of(m.cells().stream().map(Cell::result).toList())).singleElement()
                .satisfies(p -> assertThat(p.describe()).startsWith("WebGPU over wasm: from width 512"));
    }

    @Test
    void aSoftwareAdaptersLaneIsNotComparedAndNoSweepIsNoSection() throws Exception {
        assertThat(PayoffSection.of(matrix(sweep(true))).table().rows()).singleElement()
                .satisfies(r -> assertThat(text(r)).contains("not compared (software adapter"));
        Matrix none = matrix(List.of(run -> passed(run, t(0), h, ModelFamily.TEXT, "bert", BackendId.WEBGPU, chromiumProv(h, false),
                samples(3, 0.02, 40, 3))));
        assertThat(PayoffSection.of(none).hidden()).isTrue();
    }
}
