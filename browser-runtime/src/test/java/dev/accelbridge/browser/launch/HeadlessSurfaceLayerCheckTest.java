package dev.accelbridge.browser.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The layer the build made, as a driver-side component, under Vulkan's own loader on a real driver (Mesa's lavapipe):
 * {@code src/test/c/layer-check.c}, compiled here, loads the verified, unpacked layer and tries what a driver must
 * survive: the extension offered and its surface answering; a 65th instance or device refused, not left untracked;
 * queries racing creates and destroys on other threads, every one answered; every allocation failed in turn, none
 * crashing, the layer's own refused with out-of-memory. Each check prints one line, "ok" or "WRONG".
 */
@EnabledIf("dev.accelbridge.browser.launch.HeadlessSurfacesTest#layerAndLavapipe")
class HeadlessSurfaceLayerCheckTest {
    @Test
    void theBuiltLayerHoldsUnderTheLoaderOnLavapipe(@TempDir Path tmp) throws Exception {
        HeadlessSurfaceLayer.Unpacked layer = HeadlessSurfaceLayer.unpack(tmp.resolve("cache"),
                (HeadlessSurfaceLayer.Made) HeadlessSurfaceLayer.built());
        Path check = tmp.resolve("layer-check");
        Path source = Path.of("src/test/c/layer-check.c").toAbsolutePath();
        run(List.of("cc", "-O1", "-Wall", "-Wextra", "-o", check.toString(), source.toString(), "-l:libvulkan.so.1", "-lpthread"),
                tmp, null);
        String icd = HeadlessSurfacesTest.LAVAPIPE.toString();
        String out = run(List.of(check.toString()), tmp, new String[] {"XDG_DATA_DIRS", layer.share().toString(),
                HeadlessSurface.ENABLE, "1", "VK_DRIVER_FILES", icd, "VK_ICD_FILENAMES", icd});
        assertThat(out).as(out).doesNotContain("WRONG ")
                .contains("ok    the 65th device refused").contains("queries racing").contains("allocations failing one at a time");
    }

    private static String run(List<String> cmd, Path dir, String[] env) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(dir.resolve("out.txt").toFile());
        for (int i = 0; env != null && i < env.length; i += 2) {
            pb.environment().put(env[i], env[i + 1]);
        }
        Process p = pb.start();
        boolean ended = p.waitFor(120, TimeUnit.SECONDS);
        if (!ended) {
            p.destroyForcibly();
        }
        String out = Files.readString(dir.resolve("out.txt"), StandardCharsets.UTF_8);
        assertThat(ended).as("%s ended within 120 s: %s", cmd.get(0), out).isTrue();
        assertThat(p.exitValue()).as("%s exited: %s", cmd.get(0), out).isZero();
        return out;
    }
}
