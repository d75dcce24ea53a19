package dev.accelbridge.browser.launch;

import dev.accelbridge.core.fetch.TreeManifest;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The layer as the build made it, unpacked into a cache and verified, and the decision on real drivers through the real
 * probe: Mesa's lavapipe lacks {@code VK_EXT_headless_surface} (the layer), SwiftShader's Vulkan offers it (none), a
 * driver list that names no driver gives no device (none). Needs the layer built (gcc, libvulkan-dev) and lavapipe
 * (mesa-vulkan-drivers), which {@code setup.sh} installs.
 */
@EnabledIf("dev.accelbridge.browser.launch.HeadlessSurfacesTest#layerAndLavapipe")
class HeadlessSurfacesTest {
    static final Path LAVAPIPE = Path.of("/usr/share/vulkan/icd.d/lvp_icd.x86_64.json");

    static boolean layerAndLavapipe() {
        return HeadlessSurfaceLayer.built() instanceof HeadlessSurfaceLayer.Made && Files.isRegularFile(LAVAPIPE);
    }

    static LaunchOptions hardwareOn(Path icd) {
        return LaunchOptions.builder().webGpuAdapter(WebGpuAdapter.HARDWARE)
                .environment(Map.of("VK_DRIVER_FILES", icd.toString(), "VK_ICD_FILENAMES", icd.toString())).build();
    }

    @Test
    void lavapipeGetsTheVerifiedLayerAndSwiftShaderAndNoDriverGetNone(@TempDir Path tmp) throws Exception {
        HeadlessSurface lavapipe = HeadlessSurfaces.of(hardwareOn(LAVAPIPE));
        assertThat(lavapipe).as(lavapipe.describe()).isInstanceOf(HeadlessSurface.Layered.class);
        HeadlessSurface.Layered on = (HeadlessSurface.Layered) lavapipe;
        assertThat(on.devices()).anyMatch(d -> d.startsWith("llvmpipe") && d.contains(", cpu,"));
        Path lib = on.share().resolve(HeadlessSurfaceLayer.LAYER_DIR).resolve(HeadlessSurfaceLayer.LAYER);
        assertThat(TreeManifest.sha256(lib)).isEqualTo(on.layerSha256());
        assertThat(on.environment(Map.of())).containsEntry(HeadlessSurface.ENABLE, "1")
                .hasEntrySatisfying("XDG_DATA_DIRS", v -> assertThat(v).startsWith(on.share() + ":"));

        Path swiftShader = Files.writeString(tmp.resolve("swiftshader_icd.json"), "{}"); // replaced below when the shell has one
        Path shellIcd = BrowserDiscovery.find(dev.accelbridge.core.BrowserKind.CHROMIUM_SHELL)
                .map(b -> b.executable().resolveSibling("vk_swiftshader_icd.json")).filter(Files::isRegularFile).orElse(null);
        if (shellIcd != null) {
            assertThat(HeadlessSurfaces.of(hardwareOn(shellIcd))).as("SwiftShader's Vulkan offers the extension itself")
                    .isInstanceOf(HeadlessSurface.Offered.class);
        }
        assertThat(HeadlessSurfaces.of(hardwareOn(swiftShader))).as("a driver list naming no real driver")
                .isInstanceOf(HeadlessSurface.NoDevice.class);
    }

    @Test
    void aDamagedCachedLayerIsUnpackedAgainAndTheBuildsHashesHold(@TempDir Path cache) throws Exception {
        HeadlessSurfaceLayer.Made made = (HeadlessSurfaceLayer.Made) HeadlessSurfaceLayer.built();
        HeadlessSurfaceLayer.Unpacked first = HeadlessSurfaceLayer.unpack(cache, made);
        Path lib = first.share().resolve(HeadlessSurfaceLayer.LAYER_DIR).resolve(HeadlessSurfaceLayer.LAYER);
        Files.write(lib, new byte[] {1, 2, 3}); // another program swaps the library after it was unpacked
        HeadlessSurfaceLayer.Unpacked again = HeadlessSurfaceLayer.unpack(cache, made);
        Path lib2 = again.share().resolve(HeadlessSurfaceLayer.LAYER_DIR).resolve(HeadlessSurfaceLayer.LAYER);
        assertThat(TreeManifest.sha256(lib2)).isEqualTo(made.layer());
        assertThat(again.note()).contains("fetched again");

        HeadlessSurfaceLayer.Made wrong = new HeadlessSurfaceLayer.Made("00".repeat(32), made.manifest(), made.probe(), made.compiler());
        assertThatThrownBy(() -> HeadlessSurfaceLayer.unpack(cache, wrong)).as("files that are not what the build recorded")
                .hasMessageContaining(HeadlessSurfaceLayer.LAYER);
    }
}
