package dev.accelbridge.browser.launch;

import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Vulkan probe's words read as data, and the decision made on them: pure, on constructed outputs (the real probe on
 * real drivers is {@link HeadlessSurfacesTest}).
 */
class VulkanHostTest {
    private static final HeadlessSurfaceLayer.Unpacked LAYER = new HeadlessSurfaceLayer.Unpacked(Path.of("/cache/share"),
            Path.of("/cache/vulkan-probe"), "ab".repeat(32), "");

    @Test
    void aDriverWithoutTheExtensionGetsTheLayer() {
        VulkanHost h = VulkanHost.parse("loader ok\nextension VK_KHR_surface\ndevice 10de\t2\tNVIDIA H200\n");
        assertThat(h.devices()).containsExactly("NVIDIA H200, discrete GPU, vendor 10de");
        assertThat(HeadlessSurfaces.decide(h, LAYER)).isInstanceOf(HeadlessSurface.Layered.class)
                .extracting(d -> d.environment(java.util.Map.of("XDG_DATA_DIRS", "/opt/share")))
                .isEqualTo(java.util.Map.of("XDG_DATA_DIRS", "/cache/share:/opt/share", HeadlessSurface.ENABLE, "1"));
    }

    @Test
    void aDriverOfferingTheExtensionGetsNone() {
        VulkanHost h = VulkanHost.parse("loader ok\nextension VK_EXT_headless_surface\ndevice 1ae0\t4\tSwiftShader Device (Subzero)\n");
        HeadlessSurface d = HeadlessSurfaces.decide(h, LAYER);
        assertThat(d).isInstanceOf(HeadlessSurface.Offered.class);
        assertThat(d.environment(java.util.Map.of())).isEmpty();
        assertThat(d.describe()).contains("SwiftShader Device (Subzero), cpu, vendor 1ae0");
    }

    @Test
    void noLoaderOrNoDeviceIsSaidWithItsEvidenceAndGetsNone() {
        VulkanHost none = VulkanHost.parse("loader missing: libvulkan.so.1: cannot open shared object file\n");
        assertThat(none.loader()).isFalse();
        assertThat(HeadlessSurfaces.decide(none, LAYER)).isInstanceOf(HeadlessSurface.NoDevice.class)
                .extracting(HeadlessSurface::describe).asString().contains("cannot open shared object file");
        VulkanHost empty = VulkanHost.parse("loader ok\nextension VK_KHR_surface\n");
        assertThat(empty.problem()).contains("the Vulkan loader lists no device");
        assertThat(HeadlessSurfaces.decide(empty, LAYER)).isInstanceOf(HeadlessSurface.NoDevice.class);
        VulkanHost failed = VulkanHost.parse("loader ok\nerror vkCreateInstance returned -9\n");
        assertThat(HeadlessSurfaces.decide(failed, LAYER)).extracting(HeadlessSurface::describe).asString().contains("returned -9");
    }

    @Test
    void whatTheProbeSaysIsBoundedAndMalformedLinesAreLeftOut() {
        String hostile = "loader ok\nextension VK_EXT_headless_surface; rm -rf /\nextension " + "VK_X".repeat(100) + "\n"
                + "device zz\t2\tbad vendor\ndevice 10de\t9\tbad type\ndevice 10de\t2\t" + "N".repeat(5000) + "\n";
        VulkanHost h = VulkanHost.parse(hostile);
        assertThat(h.extensions()).isEmpty();
        assertThat(h.offersHeadlessSurface()).isFalse();
        assertThat(h.devices()).hasSize(1).allMatch(d -> d.length() < 200);
    }

    @Test
    void aBrowserSeekingNoGpuAdapterIsNotAskedAndNothingIsProbed() {
        assertThat(HeadlessSurfaces.of(LaunchOptions.builder().webGpuAdapter(WebGpuAdapter.SOFTWARE).build()))
                .isEqualTo(new HeadlessSurface.NotAsked("the browser seeks no GPU adapter (--webgpu-adapter software)"));
        assertThat(HeadlessSurfaces.notAsked(LaunchOptions.builder().browser(dev.accelbridge.core.BrowserKind.FIREFOX)
                .webGpuAdapter(WebGpuAdapter.HARDWARE).build())).contains("firefox is not a Chromium build");
        assertThat(HeadlessSurfaces.notAsked(LaunchOptions.builder().gridUrl(java.net.URI.create("http://grid:4444"))
                .webGpuAdapter(WebGpuAdapter.HARDWARE).build())).isPresent();
        assertThat(HeadlessSurfaces.notAsked(LaunchOptions.builder().webGpuAdapter(WebGpuAdapter.HARDWARE).build())).isEmpty();
        assertThat(HeadlessSurfaces.of(LaunchOptions.builder().webGpuAdapter(WebGpuAdapter.HARDWARE)
                .environment(java.util.Map.of(HeadlessSurface.OFF, "1")).build())).isEqualTo(new HeadlessSurface.SwitchedOff());
        assertThat(new VulkanHost(true, Set.of(), List.of(), Optional.empty()).offersHeadlessSurface()).isFalse();
    }
}
