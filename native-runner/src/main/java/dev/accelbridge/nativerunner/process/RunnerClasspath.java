package dev.accelbridge.nativerunner.process;

import dev.accelbridge.core.BackendUnavailableException;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.jar.JarFile;

/**
 * The command that starts a runner process: this JVM's {@code java}, this process's class path with ONNX Runtime's jar
 * replaced by another version's, and {@link RunnerMain}. A class path given as one manifest-only jar (Maven Surefire's
 * booter) is read through its manifest's {@code Class-Path}.
 */
final class RunnerClasspath {
    private RunnerClasspath() {
    }

    /**
     * The runner's command: {@code java}, {@code jvmOptions}, this class path with {@code ortJar}, {@link RunnerMain} and
     * {@code args}.
     *
     * @throws BackendUnavailableException when this process's class path cannot be read
     */
    static List<String> command(Path ortJar, List<String> jvmOptions, List<String> args) {
        List<Path> cp = new ArrayList<>();
        Path ours = loadedOrtJar();
        boolean replaced = false;
        for (Path p : current()) {
            if (p.equals(ours)) {
                cp.add(ortJar);
                replaced = true;
            } else {
                cp.add(p);
            }
        }
        if (!replaced) {
            cp.add(0, ortJar);
        }
        String java = ProcessHandle.current().info().command().orElse(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        List<String> cmd = new ArrayList<>(List.of(java, "-Xss4m"));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", String.join(File.pathSeparator, cp.stream().map(Path::toString).toList()), RunnerMain.class.getName()));
        cmd.addAll(args);
        return cmd;
    }

    /** This process's class path, a manifest-only jar expanded. */
    static List<Path> current() {
        List<Path> out = new ArrayList<>();
        for (String e : System.getProperty("java.class.path", "").split(File.pathSeparator)) {
            if (e.isBlank()) {
                continue;
            }
            Path p = Path.of(e).toAbsolutePath().normalize();
            out.addAll(manifestClassPath(p).orElse(List.of(p)));
        }
        if (out.isEmpty()) {
            throw new BackendUnavailableException("This process's class path is empty, so no runner process can be started",
                    "start Accelbridge with its class path (./accelbridge does)");
        }
        return out;
    }

    /** The jar ONNX Runtime's classes came from in this process. */
    static Path loadedOrtJar() {
        try {
            return Path.of(ai.onnxruntime.OrtEnvironment.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                    .toAbsolutePath().normalize();
        } catch (URISyntaxException | RuntimeException e) {
            return null;
        }
    }

    /** The entries of a jar that holds only a manifest's {@code Class-Path}, as Surefire starts tests; empty otherwise. */
    private static java.util.Optional<List<Path>> manifestClassPath(Path jar) {
        if (!jar.toString().endsWith(".jar") || !Files.isRegularFile(jar)) {
            return java.util.Optional.empty();
        }
        try (JarFile j = new JarFile(jar.toFile())) {
            if (j.getManifest() == null || j.stream().anyMatch(e -> e.getName().endsWith(".class"))) {
                return java.util.Optional.empty();
            }
            String cp = j.getManifest().getMainAttributes().getValue("Class-Path");
            if (cp == null || cp.isBlank()) {
                return java.util.Optional.empty();
            }
            List<Path> out = new ArrayList<>();
            for (String u : cp.trim().split("\\s+")) {
                URI uri = jar.getParent().toUri().resolve(u);
                out.add(Path.of(uri).toAbsolutePath().normalize());
            }
            return java.util.Optional.of(out);
        } catch (IOException | RuntimeException e) {
            return java.util.Optional.empty();
        }
    }
}
