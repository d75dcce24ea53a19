package dev.accelbridge.browser.launch;

import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.core.BrowserKind;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;

import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The headless shell on a real driver without {@code VK_EXT_headless_surface} (Mesa's lavapipe, the only Vulkan driver
 * its process is given): launched as every Playwright browser is, seeking the GPU's adapter, it gets Accelbridge's
 * layer from the one decision, and ANGLE's display starts on lavapipe (WebGL's renderer names llvmpipe through Vulkan).
 * Switched off, the same launch gets no WebGL at all: ANGLE refuses the display ("Extension not supported:
 * VK_EXT_headless_surface"), which is what a headless NVIDIA host sees without the layer. What WebGPU got is read and
 * said: Chromium's Dawn does not take lavapipe (Mesa 22.3) as an adapter, so the page has SwiftShader's fallback.
 */
@RequiresBrowser(BrowserKind.CHROMIUM_SHELL)
@EnabledIf("dev.accelbridge.browser.launch.HeadlessSurfacesTest#layerAndLavapipe")
class HeadlessSurfaceBrowserTest {
    /** ANGLE on Vulkan for WebGL and compositing; Skia stays on GL (lavapipe lacks samplerYcbcrConversion for Skia's Vulkan). */
    static final List<String> ANGLE_VULKAN = List.of("--use-gl=angle", "--use-angle=vulkan", "--ignore-gpu-blocklist");

    private static final String READ = """
            async () => {
              const out = {};
              const c = document.createElement('canvas');
              const gl = c.getContext('webgl2') || c.getContext('webgl');
              const d = gl && gl.getExtension('WEBGL_debug_renderer_info');
              out.webgl = gl ? String(d ? gl.getParameter(d.UNMASKED_RENDERER_WEBGL) : gl.getParameter(gl.RENDERER)) : 'no WebGL context';
              const a = navigator.gpu ? await navigator.gpu.requestAdapter() : null;
              out.webgpu = a ? (a.info.vendor + ' ' + a.info.architecture + (a.info.isFallbackAdapter ? ' (fallback)' : '')) : 'no adapter';
              return out;
            }""";

    @Test
    void angleStartsOnLavapipeThroughTheLayerAndNotWithoutIt() {
        Map<String, String> env = new HashMap<>(Map.of("VK_DRIVER_FILES", HeadlessSurfacesTest.LAVAPIPE.toString(),
                "VK_ICD_FILENAMES", HeadlessSurfacesTest.LAVAPIPE.toString()));
        LaunchOptions on = LaunchOptions.builder().browser(BrowserKind.CHROMIUM_SHELL).webGpuAdapter(WebGpuAdapter.HARDWARE)
                .addArgs(ANGLE_VULKAN).environment(env).build();
        assertThat(HeadlessSurfaces.of(on)).isInstanceOf(HeadlessSurface.Layered.class);
        Map<?, ?> layered = read(on);
        assertThat(String.valueOf(layered.get("webgl"))).as("what WebGL got through the layer (WebGPU: %s)", layered.get("webgpu"))
                .contains("Vulkan").contains("llvmpipe");

        env.put(HeadlessSurface.OFF, "1");
        LaunchOptions off = LaunchOptions.builder().browser(BrowserKind.CHROMIUM_SHELL).webGpuAdapter(WebGpuAdapter.HARDWARE)
                .addArgs(ANGLE_VULKAN).environment(env).build();
        assertThat(HeadlessSurfaces.of(off)).isInstanceOf(HeadlessSurface.SwitchedOff.class);
        Map<?, ?> without = read(off);
        assertThat(String.valueOf(without.get("webgl"))).as("what WebGL got without the layer").doesNotContain("llvmpipe");
    }

    private static Map<?, ?> read(LaunchOptions options) {
        try (PlaywrightVisit visit = PlaywrightVisit.open(options)) {
            return (Map<?, ?>) visit.page().evaluate(READ);
        }
    }
}
