package dev.accelbridge.nativerunner.process;

import dev.accelbridge.core.BackendUnavailableException;
import dev.accelbridge.nativerunner.DjlOnnxRuntimeProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * What the native WebGPU backend decides before any runner starts, on constructed folders: a library that is not the
 * pinned one is refused naming both hashes; without a GPU the runner gets SwiftShader's Vulkan as a software adapter, or
 * the backend is unavailable with the fix; with one, Dawn's own choice. (The backend running is {@code NativeWebGpuCliTest}.)
 */
class NativeWebGpuLibraryTest {
    @Test
    void aLibraryThatIsNotThePinnedOneIsRefusedNamingBothHashes(@TempDir Path tmp) throws Exception {
        Path pkg = tmp.resolve("webgpu");
        Path lib = pkg.resolve(NativeWebGpuLibrary.IN_PACKAGE);
        Files.createDirectories(lib.getParent());
        Files.write(lib, new byte[] {0x7f, 'E', 'L', 'F'}); // another build of the library, or a swapped file
        Path jar = OrtJars.defaults().jar(NativeWebGpuLibrary.VERSION).file();
        OrtJars.Jar j = new OrtJars.Jar(jar, "", "", "test", null);
        assertThatThrownBy(() -> NativeWebGpuLibrary.folder(tmp.resolve("cache"), pkg, j)).isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining(NativeWebGpuLibrary.SHA256);
        assertThat(NativeWebGpuLibrary.problem(lib)).hasValueSatisfying(p -> assertThat(p).contains(NativeWebGpuLibrary.SHA256));
        Path missing = tmp.resolve("none");
        assertThatThrownBy(() -> NativeWebGpuLibrary.folder(tmp.resolve("cache"), missing, j))
                .hasMessageContaining("is not installed in " + missing);
    }

    @Test
    void withoutAGpuTheRunnerGetsSwiftShaderAsASoftwareAdapterOrNothing(@TempDir Path tmp) throws Exception {
        Path icd = Files.writeString(tmp.resolve(NativeWebGpuProvider.SWIFTSHADER_ICD), "{}");
        var env = NativeWebGpuProvider.environment(false, Optional.of(icd));
        assertThat(env).containsEntry("VK_DRIVER_FILES", icd.toString()).containsEntry("ORT_WEBGPU_EP_ALLOW_SOFTWARE_ADAPTER", "1")
                .containsEntry(DjlOnnxRuntimeProvider.NATIVE_WEBGPU_SOFTWARE, "1");
        assertThat(NativeWebGpuProvider.environment(true, Optional.of(icd))).as("a GPU host: Dawn's own choice, no software allowed")
                .isEmpty();
        assertThatThrownBy(() -> NativeWebGpuProvider.environment(false, Optional.empty())).isInstanceOf(BackendUnavailableException.class)
                .hasMessageContaining("no software Vulkan driver");
        assertThat(NativeWebGpuProvider.softwareIcd(tmp.resolve("empty-cache"))).isEmpty();
        Path unrecorded = Files.createDirectories(tmp.resolve("cache/chromium-shell/153.0.0"));
        Files.writeString(unrecorded.resolve(NativeWebGpuProvider.SWIFTSHADER_ICD), "{}");
        assertThat(NativeWebGpuProvider.softwareIcd(tmp.resolve("cache"))).as("a folder that is no verified entry").isEmpty();
    }
}
