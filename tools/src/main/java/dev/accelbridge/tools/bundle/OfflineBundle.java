package dev.accelbridge.tools.bundle;

import dev.accelbridge.browser.launch.BrowserDiscovery;
import dev.accelbridge.browser.launch.InstalledBrowser;
import dev.accelbridge.browser.npm.NpmRegistry;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.Caches;
import dev.accelbridge.core.Untrusted;
import dev.accelbridge.nativerunner.process.NativeWebGpuProvider;
import dev.accelbridge.reports.store.ResultJson;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * {@code accelbridge bundle}: stages what a run needs on a host with no network and no JDK, browser or Node.js, then packs
 * it ({@link BundleArchive}). Staged, as the unpacked application's folders:
 * <ul>
 *   <li>{@code runtime/}: a Java runtime made by this JDK's {@code jlink};</li>
 *   <li>{@code lib/}: the application's jars (this process's class path; not Playwright's Node.js driver, which needs a
 *       Node.js the host has not got, nor Selenium Manager, which downloads: the bundle's browsers run as processes);</li>
 *   <li>{@code cache/}: the pinned headless shell and any asked-for onnxruntime-web versions, as the verified cache entries
 *       Accelbridge checks at every use; {@code browser-runtime/browsers/}: the shell's package description (which
 *       version is pinned), not its compressed archives;</li>
 *   <li>{@code native/}: the libraries the shell needs beyond the C library (NSS, NSPR, expat), from this host;</li>
 *   <li>{@code native-runner/webgpu/}: the native WebGPU backend's library (onnxruntime-node's, linux-x64), where built;</li>
 *   <li>{@code models/}: users' models asked for; the suites' models are made by the application (authored in Java), so
 *       they travel as code;</li>
 *   <li>{@code bin/accelbridge}: the launcher.</li>
 * </ul>
 */
public final class OfflineBundle {
    /** The Java modules the application uses (the JDK's java.se and the few jdk.* ones its libraries reach). */
    static final List<String> MODULES = List.of("java.se", "jdk.unsupported", "jdk.crypto.ec", "jdk.zipfs", "jdk.management",
            "jdk.httpserver", "jdk.naming.dns", "jdk.charsets", "jdk.net", "jdk.localedata");
    /** Class path jars a bundle leaves out, by name prefix: they need the network or Node.js on the host. */
    static final List<String> LEFT_OUT = List.of("driver-bundle-", "selenium-manager-");
    /** The C library and the loader: every host has its own, and a copy would not match its kernel interface. */
    private static final List<String> HOST_LIBS = List.of("linux-vdso", "libc.so", "libm.so", "libdl.so", "libpthread.so",
            "librt.so", "ld-linux", "libgcc_s.so", "libstdc++.so");
    /** The NSS modules NSS opens by name at run time (not in ldd's answer). */
    private static final List<String> NSS_MODULES = List.of("libsoftokn3.so", "libfreebl3.so", "libfreeblpriv3.so",
            "libnssckbi.so", "libnssdbm3.so");

    /**
     * What a bundle holds beyond the application.
     *
     * @param out            the bundle's folder (new or empty)
     * @param partSize       the most bytes one part holds
     * @param ortWebVersions onnxruntime-web versions beside the pinned one, fetched now into the bundle's cache
     * @param models         users' model files or folders, copied into {@code models/}
     */
    public record Options(Path out, long partSize, List<String> ortWebVersions, List<Path> models) {
        public Options {
            ortWebVersions = List.copyOf(ortWebVersions);
            models = List.copyOf(models);
        }
    }

    /** What was written: the folder, its parts, their bytes, the manifest's sha256, and what the bundle holds. */
    public record Result(Path folder, int parts, long bytes, String manifestSha256, Map<String, String> holds) {
    }

    private OfflineBundle() {
    }

    /** The smallest part a bundle is cut into: found when tried, {@code --part-size 1} wrote 844,866 one-byte parts. */
    public static final long MIN_PART_SIZE = 1L << 20;

    /** Parses a part size ({@code 100M}, {@code 2G}, bytes), at least {@link #MIN_PART_SIZE}. */
    public static long partSize(String text) {
        long size;
        try {
            size = Parts.parseSize(text);
        } catch (IllegalArgumentException e) {
            throw new AccelbridgeException(e.getMessage(), "e.g. --part-size 100M");
        }
        if (size < MIN_PART_SIZE) {
            throw new AccelbridgeException("--part-size " + text + " is below 1M: a bundle cut that fine is hundreds of thousands of "
                    + "parts to copy", "give at least 1M, e.g. --part-size 100M");
        }
        return size;
    }

    /**
     * Stages and packs the bundle.
     *
     * @throws AccelbridgeException when a piece cannot be had (no jlink, no headless shell, a model path missing)
     */
    public static Result write(Options o, Consumer<String> progress) {
        check(o);
        Path staged = null;
        Thread cleanup = null;
        try {
            staged = Files.createTempDirectory("accelbridge-bundle-");
            // SIGTERM (timeout, CI, systemd) runs the JVM's shutdown hooks: the half-staged half-gigabyte goes with the run
            Path toDelete = staged;
            cleanup = new Thread(() -> {
                // jlink and tar run as this process's children and would go on writing into the folder
                ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
                ProcessHandle.current().descendants().forEach(h -> h.onExit().completeOnTimeout(h, 5, java.util.concurrent.TimeUnit.SECONDS).join());
                deleteQuietly(toDelete);
            }, "bundle-staging-cleanup");
            Runtime.getRuntime().addShutdownHook(cleanup);
            Map<String, String> holds = new LinkedHashMap<>();
            progress.accept("Java runtime (jlink)");
            holds.put("java", BundleRuntime.jlink(staged.resolve("runtime")));
            progress.accept("application jars");
            holds.put("jars", String.valueOf(BundleRuntime.jars(staged.resolve("lib"))));
            progress.accept("headless shell and its libraries");
            InstalledBrowser shell = shell(staged);
            holds.put("chromium-shell", shell.version());
            holds.put("native", String.join(" ", BundleRuntime.nativeLibs(shell.executable(), staged.resolve("native"), HOST_LIBS, NSS_MODULES)));
            progress.accept("native WebGPU library");
            nativeWebGpu(staged).ifPresent(v -> holds.put("native-webgpu", v));
            for (String v : o.ortWebVersions()) {
                progress.accept("onnxruntime-web " + v);
                NpmRegistry.cached(staged.resolve("cache"), "onnxruntime-web", v);
                holds.merge("onnxruntime-web", v, (a, b) -> a + " " + b);
            }
            for (Path m : o.models()) {
                progress.accept("model " + m.getFileName());
                copyTree(m, staged.resolve("models").resolve(m.getFileName().toString()));
                holds.merge("models", m.getFileName().toString(), (a, b) -> a + " " + b);
            }
            launcher(staged.resolve("bin").resolve("accelbridge"));
            Files.writeString(staged.resolve("bundle.json"), ResultJson.MAPPER.writerWithDefaultPrettyPrinter()
                    .writeValueAsString(holds));
            progress.accept("packing into parts of at most " + o.partSize() + " bytes");
            BundleArchive.Written w = BundleArchive.pack(staged, o.out(), o.partSize());
            return new Result(w.folder(), w.parts().size(), w.bytes(), w.manifestSha256(), holds);
        } catch (IOException e) {
            throw new AccelbridgeException("The bundle could not be written: " + Untrusted.reason(e.toString()),
                    "check free space in " + System.getProperty("java.io.tmpdir") + " and " + o.out());
        } finally {
            if (cleanup != null) {
                try {
                    Runtime.getRuntime().removeShutdownHook(cleanup);
                } catch (IllegalStateException shuttingDown) {
                    // the hook runs, or has run, already
                }
            }
            deleteQuietly(staged);
        }
    }

    private static void deleteQuietly(Path staged) {
        if (staged != null && Files.exists(staged)) {
            try {
                Caches.deleteTree(staged);
            } catch (IOException | RuntimeException ignored) {
                // a temp folder left behind is the system's to clean
            }
        }
    }

    private static void check(Options o) {
        try (var s = Files.isDirectory(o.out()) ? Files.list(o.out()) : java.util.stream.Stream.<Path>empty()) {
            if (s.findAny().isPresent()) {
                throw new AccelbridgeException("The bundle's folder " + o.out() + " is not empty", "give a new or empty folder to --out");
            }
        } catch (IOException e) {
            throw new AccelbridgeException("The bundle's folder " + o.out() + " cannot be read: " + e.getMessage(), "give a new or empty folder to --out");
        }
        if (Files.exists(o.out()) && !Files.isDirectory(o.out())) {
            throw new AccelbridgeException(o.out() + " is a file", "give a new or empty folder to --out");
        }
        for (Path m : o.models()) {
            if (!Files.exists(m, LinkOption.NOFOLLOW_LINKS) || Files.isSymbolicLink(m)) {
                throw new AccelbridgeException("The model " + m + " is not a file or folder here", "give a model file or folder to --model");
            }
            // found when tried: a FIFO hung the bundle for ever, /dev/zero was copied without end
            if (!Files.isRegularFile(m, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(m, LinkOption.NOFOLLOW_LINKS)) {
                throw new AccelbridgeException("The model " + m + " is neither a regular file nor a folder (a pipe, a device)",
                        "give a model file or folder to --model");
            }
        }
    }

    /** The pinned shell's cache entry, and the package description that names it, staged; the shell. */
    private static InstalledBrowser shell(Path staged) throws IOException {
        InstalledBrowser shell = BrowserDiscovery.find(BrowserKind.CHROMIUM_SHELL).orElseThrow(() ->
                new AccelbridgeException("No headless shell to bundle", "build the project first (./setup.sh build)"));
        Path entry = shell.executable().getParent();
        Path cache = Caches.root().toAbsolutePath();
        if (!entry.toAbsolutePath().startsWith(cache.resolve("chromium-shell"))) {
            throw new AccelbridgeException("The headless shell at " + shell.executable() + " is not one Accelbridge unpacked and verifies",
                    "unset ACCELBRIDGE_CHROMIUM_SHELL so the bundle carries the build's shell");
        }
        copyTree(entry, staged.resolve("cache").resolve("chromium-shell").resolve(entry.getFileName().toString()));
        Path browsers = Path.of(System.getProperty("accelbridge.home", "."), "browser-runtime", "browsers");
        for (String f : List.of("package.json", "extract.mjs", "node_modules/@sparticuz/chromium/package.json")) {
            Path to = staged.resolve("browser-runtime/browsers").resolve(f);
            Files.createDirectories(to.getParent());
            Files.copy(browsers.resolve(f), to);
        }
        return shell;
    }

    /**
     * The native WebGPU backend's library (onnxruntime-node's, linux-x64) and its package descriptions, where the build
     * installed them: carried as files under {@code native-runner/webgpu}; the application checks the library against its
     * pinned sha256 at its first use, as it does here. Empty where the build has none.
     */
    private static java.util.Optional<String> nativeWebGpu(Path staged) throws IOException {
        java.util.Optional<Path> dir = NativeWebGpuProvider.packageDir();
        if (dir.isEmpty() || !NativeWebGpuProvider.CARRIED.stream().allMatch(f -> Files.isRegularFile(dir.get().resolve(f)))) {
            return java.util.Optional.empty();
        }
        for (String f : NativeWebGpuProvider.CARRIED) {
            Path to = staged.resolve("native-runner/webgpu").resolve(f);
            Files.createDirectories(to.getParent());
            Files.copy(dir.get().resolve(f), to);
        }
        return java.util.Optional.of("onnxruntime-node's linux-x64 library (" + NativeWebGpuProvider.CARRIED.get(2) + ")");
    }

    private static void launcher(Path to) throws IOException {
        Files.createDirectories(to.getParent());
        try (InputStream in = OfflineBundle.class.getResourceAsStream("accelbridge.sh")) {
            Files.write(to, in.readAllBytes());
        }
        Files.setPosixFilePermissions(to, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** Copies a file or a folder's tree (links refused: a bundle holds files), keeping each file's permissions. */
    static void copyTree(Path from, Path to) throws IOException {
        List<Path> all = new ArrayList<>();
        try (var s = Files.walk(from)) {
            s.forEach(all::add);
        }
        for (Path p : all) {
            Path t = to.resolve(from.relativize(p).toString());
            if (Files.isSymbolicLink(p)) {
                throw new IOException(p + " is a link: a bundle holds files and folders only");
            } else if (!Files.isRegularFile(p, LinkOption.NOFOLLOW_LINKS) && !Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)) {
                throw new IOException(p + " is neither a regular file nor a folder: a bundle holds files and folders only");
            } else if (Files.isDirectory(p)) {
                Files.createDirectories(t);
            } else {
                Files.createDirectories(t.getParent());
                Files.copy(p, t, StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
    }
}
