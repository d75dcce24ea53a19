package dev.accelbridge.tools.bundle;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.Untrusted;

import java.io.File;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;

/** The bundle's runtime pieces taken from this host: the Java runtime, the application's jars, the shell's libraries. */
final class BundleRuntime {
    private BundleRuntime() {
    }

    /** A Java runtime of {@link OfflineBundle#MODULES} made by this JDK's jlink into {@code out}; its version. */
    static String jlink(Path out) throws IOException {
        Path jlink = Path.of(System.getProperty("java.home"), "bin", "jlink");
        if (!Files.isExecutable(jlink)) {
            throw new AccelbridgeException("This Java (" + System.getProperty("java.home") + ") has no jlink to make the bundle's runtime",
                    "run the bundle command with a JDK 17+ (apt-get install openjdk-17-jdk-headless)");
        }
        run(List.of(jlink.toString(), "--add-modules", String.join(",", OfflineBundle.MODULES), "--strip-debug", "--no-header-files",
                "--no-man-pages", "--compress=2", "--output", out.toString()), "jlink");
        // jlink links the modules' legal notices to java.base's: the bundle holds files, so each link becomes its copy
        List<Path> links;
        try (var s = Files.walk(out)) {
            links = s.filter(Files::isSymbolicLink).toList();
        }
        for (Path l : links) {
            Path target = l.toRealPath();
            Files.delete(l);
            Files.copy(target, l);
        }
        return System.getProperty("java.runtime.version");
    }

    /**
     * This process's class path as jars in {@code lib}: each jar copied (but {@link OfflineBundle#LEFT_OUT}), each classes
     * folder made a jar. The count copied.
     */
    static int jars(Path lib) throws IOException {
        Files.createDirectories(lib);
        int n = 0;
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            if (e.isBlank()) {
                continue;
            }
            Path p = Path.of(e);
            String name = p.getFileName().toString();
            if (Files.isDirectory(p)) {
                // target/classes of a module: named after the module's folder
                Path module = p.toAbsolutePath().getParent().getParent();
                jarFolder(p, lib.resolve("accelbridge-" + module.getFileName() + "-classes.jar"));
                n++;
            } else if (Files.isRegularFile(p) && name.endsWith(".jar") && OfflineBundle.LEFT_OUT.stream().noneMatch(name::startsWith)) {
                Path to = lib.resolve(name);
                if (Files.exists(to)) {
                    throw new IOException("two class path jars are named " + name);
                }
                Files.copy(p, to);
                n++;
            }
        }
        return n;
    }

    private static void jarFolder(Path dir, Path jar) throws IOException {
        List<Path> files;
        try (var s = Files.walk(dir)) {
            files = s.filter(Files::isRegularFile).sorted().toList();
        }
        try (JarOutputStream out = new JarOutputStream(Files.newOutputStream(jar))) {
            for (Path f : files) {
                out.putNextEntry(new JarEntry(dir.relativize(f).toString().replace(File.separatorChar, '/')));
                Files.copy(f, out);
                out.closeEntry();
            }
        }
    }

    /**
     * The libraries {@code executable} links beyond the host's own ({@code hostLibs}: the C library and its kin), as
     * {@code ldd} resolves them here, plus the modules NSS opens by name from beside libnss3; copied into {@code out}
     * under their sonames. Their names.
     */
    static List<String> nativeLibs(Path executable, Path out, List<String> hostLibs, List<String> nssModules) throws IOException {
        Files.createDirectories(out);
        String ldd = run(List.of("ldd", executable.toString()), "ldd");
        List<String> names = new ArrayList<>();
        Path nssDir = null;
        for (String line : ldd.split("\n")) {
            String[] parts = line.strip().split("\\s+");
            if (parts.length < 3 || !parts[1].equals("=>") || !parts[2].startsWith("/")) {
                if (line.contains("not found")) {
                    throw new AccelbridgeException("The headless shell needs a library this host has not got: " + line.strip(),
                            "install it here before bundling (apt-get install libnss3)");
                }
                continue;
            }
            String soname = parts[0];
            if (hostLibs.stream().anyMatch(soname::startsWith)) {
                continue;
            }
            Path real = Path.of(parts[2]).toRealPath();
            Files.copy(real, out.resolve(soname));
            names.add(soname);
            if (soname.startsWith("libnss3.so")) {
                nssDir = Path.of(parts[2]).getParent();
            }
        }
        if (nssDir != null) {
            for (String m : nssModules) {
                Path lib = nssDir.resolve(m);
                if (Files.isRegularFile(lib) && !Files.exists(out.resolve(m))) {
                    Files.copy(lib.toRealPath(), out.resolve(m));
                    names.add(m);
                }
            }
        }
        return names;
    }

    /** Runs a tool to its end (at most 10 minutes); its output, or an error with its last words. */
    private static String run(List<String> cmd, String what) throws IOException {
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        p.getOutputStream().close();
        byte[] out;
        try (var in = p.getInputStream()) {
            out = in.readNBytes(1 << 20);
            in.transferTo(OutputStream.nullOutputStream());
        }
        try {
            if (!p.waitFor(10, TimeUnit.MINUTES)) {
                p.destroyForcibly();
                throw new IOException(what + " did not finish within 10 minutes");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while running " + what, e);
        }
        String text = new String(out, StandardCharsets.UTF_8);
        if (p.exitValue() != 0) {
            throw new AccelbridgeException(what + " failed (exit " + p.exitValue() + "): " + Untrusted.bounded(
                    Untrusted.oneLine(text), 400), "run '" + String.join(" ", cmd) + "' to see why");
        }
        return text;
    }
}
