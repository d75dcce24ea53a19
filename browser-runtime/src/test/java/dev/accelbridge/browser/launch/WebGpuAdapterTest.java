package dev.accelbridge.browser.launch;

import dev.accelbridge.core.AccelbridgeException;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The code that decides which WebGPU adapter a launch asks for, on constructed hosts (no GPU here). */
class WebGpuAdapterTest {
    @Test
    void autoIsTheGpusWhereTheHostHasOneElseSoftwareAndAnAskedChoiceStands() {
        assertThat(WebGpuAdapter.AUTO.on(true)).isEqualTo(WebGpuAdapter.HARDWARE);
        assertThat(WebGpuAdapter.AUTO.on(false)).isEqualTo(WebGpuAdapter.SOFTWARE);
        assertThat(WebGpuAdapter.SOFTWARE.on(true)).isEqualTo(WebGpuAdapter.SOFTWARE);
        assertThat(WebGpuAdapter.HARDWARE.on(false)).isEqualTo(WebGpuAdapter.HARDWARE);
        assertThat(WebGpuAdapter.parse(" Hardware ")).isEqualTo(WebGpuAdapter.HARDWARE);
        assertThatThrownBy(() -> WebGpuAdapter.parse("metal")).isInstanceOf(AccelbridgeException.class)
                .hasMessageContaining("Unknown WebGPU adapter 'metal'");
    }

    @Test
    void theHalfPrecisionVariantIsTheGpusAdapterWithDawnsToggleAndSaysSo() {
        assertThat(WebGpuAdapter.parse("hardware-f16")).isEqualTo(WebGpuAdapter.HARDWARE_F16);
        assertThat(WebGpuAdapter.HARDWARE_F16.on(true)).isEqualTo(WebGpuAdapter.HARDWARE_F16);
        assertThat(WebGpuAdapter.HARDWARE_F16.variantFlags()).containsExactly("--enable-dawn-features=vulkan_enable_f16_on_nvidia");
        assertThat(WebGpuAdapter.HARDWARE_F16.variantNote()).hasValueSatisfying(n -> assertThat(n).contains("not a user's default"));
        for (WebGpuAdapter a : List.of(WebGpuAdapter.AUTO, WebGpuAdapter.HARDWARE, WebGpuAdapter.SOFTWARE)) {
            assertThat(a.variantFlags()).isEmpty();
            assertThat(a.variantNote()).isEmpty();
        }
    }

    @Test
    void aHostShowsAGpuByNvidiasOrAmdsNodeOrADrmRenderNode() {
        assertThat(has(Set.of(), Map.of())).isFalse();
        assertThat(has(Set.of(), Map.of(Path.of("/dev/dri"), List.of("card0", "by-path")))).as("a display-only card").isFalse();
        assertThat(has(Set.of(Path.of("/dev/nvidia0")), Map.of())).isTrue();
        assertThat(has(Set.of(Path.of("/dev/kfd")), Map.of())).isTrue();
        assertThat(has(Set.of(), Map.of(Path.of("/dev/dri"), List.of("card0", "renderD128")))).isTrue();
    }

    @Test
    void theHardwareFlagSetsAskForVulkanAndTheSoftwareOneForSwiftShader() {
        assertThat(ChromiumFlags.HARDWARE_WEBGPU).isNotEmpty().allSatisfy(set -> assertThat(set).contains("--ignore-gpu-blocklist"));
        assertThat(ChromiumFlags.HARDWARE_WEBGPU.get(0)).contains("--enable-features=Vulkan", "--disable-vulkan-surface");
        assertThat(ChromiumFlags.SOFTWARE_WEBGPU).containsExactly("--use-webgpu-adapter=swiftshader");
        // a set's feature switch is merged into ours, not dropped by a later --enable-features
        List<String> flags = ChromiumFlags.forLaunch(dev.accelbridge.core.BrowserKind.CHROMIUM_SHELL, DriverKind.PROCESS, true,
                ChromiumFlags.HARDWARE_WEBGPU.get(0));
        assertThat(flags.stream().filter(f -> f.startsWith("--enable-features=")).toList()).singleElement().asString().contains("Vulkan");
    }

    private static boolean has(Set<Path> exist, Map<Path, List<String>> dirs) {
        return dev.accelbridge.core.HostGpuNodes.present(exist::contains, d -> dirs.getOrDefault(d, List.of()));
    }
}
