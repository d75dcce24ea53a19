package dev.accelbridge.browser.npm;

import dev.accelbridge.core.Untrusted;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** The npm command line, run with a time limit; its output is kept for the error message when it fails. */
final class Npm {
    private static final long TIMEOUT_S = 600;

    private Npm() {
    }

    /**
     * The folder every npm command runs in unless it installs into a folder of its own: an empty private folder, so npm
     * reads the same configuration (the user's and the global {@code .npmrc}) whatever folder Accelbridge was started in.
     * Found when tried: {@code npm view} ran in the caller's folder and read its {@code .npmrc}, which {@code npm install}
     * (run in a folder of its own) did not.
     */
    static synchronized Path neutralDir() {
        try {
            if (neutral == null || !Files.isDirectory(neutral)) {
                neutral = Files.createTempDirectory("accelbridge-npm-");
                neutral.toFile().deleteOnExit();
            }
            return neutral;
        } catch (IOException e) {
            throw new NpmException("Could not make a temporary folder for npm: " + e.getMessage(), "check free space in "
                    + System.getProperty("java.io.tmpdir"), e);
        }
    }

    private static Path neutral;

    /** Runs {@code npm ARGS} in {@code dir} (null: {@link #neutralDir()}) and returns its standard output. */
    static String run(List<String> args, Path dir, String what) {
        List<String> cmd = new ArrayList<>();
        cmd.add(System.getProperty("os.name").toLowerCase(java.util.Locale.ROOT).contains("win") ? "npm.cmd" : "npm");
        cmd.addAll(args);
        Path out = null;
        Path err = null;
        try {
            out = Files.createTempFile("accelbridge-npm", ".out");
            err = Files.createTempFile("accelbridge-npm", ".err");
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectOutput(out.toFile()).redirectError(err.toFile())
                    .directory((dir == null ? neutralDir() : dir).toFile());
            Process p = pb.start();
            p.getOutputStream().close();
            if (!p.waitFor(TIMEOUT_S, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new NpmException("npm took over " + TIMEOUT_S + " s to " + what, "check that the npm registry is reachable ('npm ping')");
            }
            String stdout = Files.readString(out, StandardCharsets.UTF_8);
            if (p.exitValue() != 0) {
                throw new NpmException("npm could not " + what + " (exit " + p.exitValue() + "): "
                        + tail(Files.readString(err, StandardCharsets.UTF_8) + stdout), "check the version exists ('npm view "
                        + "PACKAGE versions') and that the npm registry is reachable ('npm ping')");
            }
            return stdout;
        } catch (IOException e) {
            throw new NpmException("Could not run npm to " + what + ": " + e.getMessage(),
                    "install Node.js 20+ with npm (./setup.sh does)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new NpmException("Interrupted while npm ran to " + what, null, e);
        } finally {
            for (Path f : new Path[]{out, err}) {
                if (f != null) {
                    try {
                        Files.deleteIfExists(f);
                    } catch (IOException ignored) {
                        // a leftover temporary file is harmless
                    }
                }
            }
        }
    }

    /** Runs npm and reads its standard output as JSON. */
    static JsonNode json(List<String> args, Path dir, String what) {
        String s = run(args, dir, what);
        try {
            return new ObjectMapper().readTree(s.isBlank() ? "null" : s);
        } catch (IOException e) {
            throw new NpmException("npm's answer to " + what + " is not JSON: " + tail(s), "check 'npm --version' (needs npm 7+)", e);
        }
    }

    /** The end of what npm said, one bounded line (it may quote a registry's answer). */
    private static String tail(String s) {
        String t = Untrusted.oneLine(s).strip().replaceAll(" +", " ");
        return t.length() > 500 ? "…" + t.substring(t.length() - 500) : t;
    }
}
