package dev.accelbridge.nativerunner.process;

import dev.accelbridge.core.BackendUnavailableException;
import dev.accelbridge.core.Caches;
import dev.accelbridge.core.fetch.CacheEntry;
import dev.accelbridge.core.fetch.CacheEntryException;
import dev.accelbridge.core.fetch.TreeManifest;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;

/**
 * ONNX Runtime with its native WebGPU EP for a runner process: onnxruntime-node 1.29.0's {@code libonnxruntime.so.1}
 * (linux-x64; the build installs the package from {@code native-runner/webgpu}'s lockfile with its scripts ignored) beside
 * the Java binding's JNI library from ONNX Runtime Java 1.29.0's verified jar, in one folder of Accelbridge's cache that
 * the runner's {@code -Donnxruntime.native.path} names. The library is checked against the sha256 pinned here when it is
 * copied, and the folder is verified again at every start of a runner ({@link CacheEntry}).
 */
final class NativeWebGpuLibrary {
    /** The ONNX Runtime version of both libraries: the node package's symbol version must be the Java binding's. */
    static final String VERSION = "1.29.0";
    /** The sha256 of onnxruntime-node 1.29.0's {@code bin/napi-v6/linux/x64/libonnxruntime.so.1}. */
    static final String SHA256 = "89688f5cf51c7e31befbb7b9101bc027799009b18d1baa9a5b1146a72e69538d";
    static final String IN_PACKAGE = "node_modules/onnxruntime-node/bin/napi-v6/linux/x64/libonnxruntime.so.1";
    static final String JNI = "ai/onnxruntime/native/linux-x64/libonnxruntime4j_jni.so";
    private static final long MAX_JNI = 16L << 20;

    private NativeWebGpuLibrary() {
    }

    /**
     * The folder a runner's {@code onnxruntime.native.path} names, its files verified now.
     *
     * @throws BackendUnavailableException when this is not linux-x64, the package is not installed, or a file is not the
     *                                     one pinned
     */
    static Path folder(Path cacheRoot, Path packageDir, OrtJars.Jar jar) {
        String os = System.getProperty("os.name", "").toLowerCase(Locale.ROOT);
        String arch = System.getProperty("os.arch", "");
        if (!os.contains("linux") || !(arch.equals("amd64") || arch.equals("x86_64"))) {
            throw new BackendUnavailableException("The native WebGPU EP is carried for linux-x64 only (this is " + os + " " + arch + ")",
                    "run native-webgpu on a linux-x64 host");
        }
        Path lib = packageDir.resolve(IN_PACKAGE);
        if (!Files.isRegularFile(lib)) {
            throw new BackendUnavailableException("onnxruntime-node " + VERSION + " is not installed in " + packageDir,
                    "build Accelbridge with its npm packages (./setup.sh build installs native-runner/webgpu's)");
        }
        try {
            CacheEntry.Verified v = new CacheEntry(cacheRoot, "native-webgpu", "onnxruntime-node-" + VERSION)
                    .obtain("ONNX Runtime " + VERSION + " with the WebGPU EP", into -> {
                        Files.copy(lib, into.resolve("libonnxruntime.so"));
                        extract(jar.file(), into.resolve("libonnxruntime4j_jni.so"));
                        return Map.of("package", "onnxruntime-node@" + VERSION, "library", SHA256, "jni", jar.sha256());
                    }, (dir, facts) -> problem(dir.resolve("libonnxruntime.so")));
            return v.dir();
        } catch (CacheEntryException e) {
            throw new BackendUnavailableException(e.getMessage(), e.fix());
        }
    }

    /** {@link #folder(Path, Path, OrtJars.Jar)} in Accelbridge's cache, the package found where the build installed it. */
    static Path folder(OrtJars.Jar jar) {
        Path pkg = packageDir().orElseThrow(() -> new BackendUnavailableException("native-runner/webgpu (onnxruntime-node "
                + VERSION + ") was not found from " + Path.of("").toAbsolutePath(), "run Accelbridge from its checkout, or set "
                + "-Daccelbridge.home (the accelbridge script does)"));
        return folder(Caches.root(), pkg, jar);
    }

    /** The library's sha256 if it is not the pinned one, as a problem; empty when it is. */
    static Optional<String> problem(Path library) throws IOException {
        String got = TreeManifest.sha256(library);
        return got.equals(SHA256) ? Optional.empty()
                : Optional.of("libonnxruntime.so has sha256 " + got + " where onnxruntime-node " + VERSION + "'s is " + SHA256);
    }

    private static void extract(Path jar, Path to) throws IOException {
        try (ZipFile z = new ZipFile(jar.toFile())) {
            ZipEntry e = z.getEntry(JNI);
            if (e == null || e.getSize() > MAX_JNI) {
                throw new IOException(jar + " holds no " + JNI + " of at most " + MAX_JNI + " bytes");
            }
            try (InputStream in = z.getInputStream(e)) {
                Files.write(to, in.readNBytes((int) MAX_JNI));
            }
        }
    }

    /** {@code native-runner/webgpu}: under {@code accelbridge.home}, else above the working directory. */
    static Optional<Path> packageDir() {
        String explicit = System.getProperty("accelbridge.native-webgpu.dir", System.getenv("ACCELBRIDGE_NATIVE_WEBGPU_DIR"));
        if (explicit != null && !explicit.isBlank()) {
            return Optional.of(Path.of(explicit).toAbsolutePath());
        }
        String home = System.getProperty("accelbridge.home");
        List<Path> starts = home == null ? List.of(Path.of("").toAbsolutePath()) : List.of(Path.of(home).toAbsolutePath(),
                Path.of("").toAbsolutePath());
        for (Path start : starts) {
            for (Path d = start; d != null; d = d.getParent()) {
                Path c = d.resolve("native-runner/webgpu");
                if (Files.isRegularFile(c.resolve(IN_PACKAGE))) {
                    return Optional.of(c);
                }
            }
        }
        return Optional.empty();
    }
}
