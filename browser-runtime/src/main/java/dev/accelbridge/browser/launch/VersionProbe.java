package dev.accelbridge.browser.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Asks an executable its version (a browser, its driver, the headless shell): runs {@code <binary> [flags] --version},
 * bounded by a timeout and read on its own thread, and takes the first dotted version token from the answer.
 */
final class VersionProbe {
    private static final Pattern VERSION = Pattern.compile("\\d+(?:\\.\\d+)+\\S*");
    private static final long VERSION_TIMEOUT_S = 20;

    private VersionProbe() {
    }

    /**
     * Runs {@code <binary> --version} and returns the version token ({@code 156.0.8078.79}, {@code 153.7.0esr}).
     *
     * @throws BrowserLaunchException when the binary does not answer in time or prints no version
     */
    static String version(Path binary, String... flags) {
        return version(binary, Map.of(), flags);
    }

    /** {@link #version(Path, String...)} with {@code env} added to the binary's environment. */
    static String version(Path binary, Map<String, String> env, String... flags) {
        String text;
        try {
            List<String> cmd = new ArrayList<>(List.of(binary.toString()));
            cmd.addAll(List.of(flags));
            cmd.add("--version");
            ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
            pb.environment().putAll(env);
            Process p = pb.start();
            p.getOutputStream().close();
            // Read on a separate thread so a binary that never closes its stdout cannot block us past the timeout.
            var reader = new CompletableFuture<String>();
            Thread t = new Thread(() -> {
                try {
                    reader.complete(new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8));
                } catch (IOException e) {
                    reader.completeExceptionally(e);
                }
            }, "accelbridge-version-" + binary.getFileName());
            t.setDaemon(true);
            t.start();
            if (!p.waitFor(VERSION_TIMEOUT_S, TimeUnit.SECONDS)) {
                p.descendants().forEach(ProcessHandle::destroyForcibly);
                p.destroyForcibly();
                throw new BrowserLaunchException("'" + binary + " --version' did not answer within " + VERSION_TIMEOUT_S + " s",
                        "check that the browser starts from a shell", null);
            }
            text = reader.get(5, TimeUnit.SECONDS).trim();
        } catch (IOException | ExecutionException | TimeoutException e) {
            throw new BrowserLaunchException("Could not run '" + binary + " --version': " + e.getMessage(),
                    "check that the browser starts from a shell", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new BrowserLaunchException("Interrupted while asking " + binary + " for its version", null, e);
        }
        return parseVersion(text).orElseThrow(() -> new BrowserLaunchException(
                "'" + binary + " --version' printed no version: " + abbreviate(text),
                "check that the browser starts from a shell", null));
    }

    /** The first dotted version token in a {@code --version} line. */
    static Optional<String> parseVersion(String text) {
        Matcher m = VERSION.matcher(text);
        return m.find() ? Optional.of(m.group()) : Optional.empty();
    }

    private static String abbreviate(String s) {
        return s.length() > 200 ? s.substring(0, 200) + "…" : s;
    }
}
