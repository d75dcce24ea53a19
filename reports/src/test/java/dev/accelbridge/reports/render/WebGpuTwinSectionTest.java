package dev.accelbridge.reports.render;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.history.RegressionDetector;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static dev.accelbridge.reports.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * A browser WebGPU cell beside its native WebGPU twin (the same case on ONNX Runtime's WebGPU EP outside the browser):
 * the ratio where both figures stand as speeds, "not compared" with why where one does not, and no section at all where
 * no pair exists. Constructed results (fixtures, not measurements shown to anyone), through a real store.
 */
class WebGpuTwinSectionTest {
    private final HostInfo h = host("gpu-host");
    @TempDir
    Path dir;

    private Provenance nativeWebGpu(boolean software) {
        return new Provenance(h.hostname(), h.fingerprint(), h.os(), null, null, "djl", software
                ? "SwiftShader Device (Vulkan) (software adapter)" : "NVIDIA H200", software, List.of("WebGpuExecutionProvider"),
                Map.of("onnxruntime", "1.29.0"), 2);
    }

    private static String text(Section.Row r) {
        return String.join(" | ", r.cells().stream().map(Section.Entry::text).toList());
    }

    private Matrix matrix(List<java.util.function.Function<String, RunResult>> results) throws Exception {
        try (dev.accelbridge.reports.store.MatrixStore s = dev.accelbridge.reports.store.MatrixStore.open(dir.resolve("m.duckdb"))) {
            String run = s.beginRun(h, Map.of("accelbridge", "0.1.0"), "{}");
            results.forEach(f -> s.write(f.apply(run)));
            s.finishRun(run);
            return MatrixBuilder.build(s, java.util.Optional.of(run), RegressionDetector.defaults());
        }
    }

    @Test
    void theBrowsersTimeOverTheNativeEpsIsGivenWhereBothStandAsSpeeds() throws Exception {
        double[] browser = samples(20, 0.02, 40, 20);
        double[] nat = samples(10, 0.02, 40, 10);
        Matrix m = matrix(List.of(
                run -> passed(run, t(0), h, ModelFamily.TEXT, "bert", BackendId.CPU, nativeProv(h), samples(5, 0.02, 40, 5)),
                run -> passed(run, t(1), h, ModelFamily.TEXT, "bert", BackendId.WEBGPU, chromiumProv(h, false), browser),
                run -> passed(run, t(2), h, ModelFamily.TEXT, "bert", BackendId.NATIVE_WEBGPU, nativeWebGpu(false), nat)));
        Section s = WebGpuTwinSection.of(m);
        assertThat(s.hidden()).isFalse();
        assertThat(s.table().rows()).singleElement().satisfies(r -> assertThat(text(r))
                .contains("2.0").contains("×").contains("nvidia ampere / NVIDIA H200"));
    }

    @Test
    void aSoftwareAdapterOnEitherSideIsNotComparedAndNoPairIsNoSection() throws Exception {
        Matrix m = matrix(List.of(
                run -> passed(run, t(0), h, ModelFamily.TEXT, "bert", BackendId.CPU, nativeProv(h), samples(5, 0.02, 40, 5)),
                run -> passed(run, t(1), h, ModelFamily.TEXT, "bert", BackendId.WEBGPU, chromiumProv(h, true), samples(200, 0.02, 40, 200)),
                run -> passed(run, t(2), h, ModelFamily.TEXT, "bert", BackendId.NATIVE_WEBGPU, nativeWebGpu(true), samples(100, 0.02, 40, 100)),
                run -> passed(run, t(3), h, ModelFamily.VISION, "convnet", BackendId.WEBGPU, chromiumProv(h, false), samples(3, 0.02, 40, 3))));
        Section s = WebGpuTwinSection.of(m);
        assertThat(s.table().rows()).as("convnet has no native twin: no row").singleElement()
                .satisfies(r -> assertThat(text(r)).contains("not compared (browser: software adapter"));
        Matrix none = matrix(List.of(
                run -> passed(run, t(0), h, ModelFamily.TEXT, "bert", BackendId.WEBGPU, chromiumProv(h, false), samples(3, 0.02, 40, 3))));
        assertThat(WebGpuTwinSection.of(none).hidden()).isTrue();
    }
}
