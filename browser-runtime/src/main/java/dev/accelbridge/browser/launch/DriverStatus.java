package dev.accelbridge.browser.launch;

import dev.accelbridge.core.Untrusted;

import java.io.IOException;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

/**
 * A WebDriver server Accelbridge started itself (WebKitWebDriver), waited for: its W3C {@code /status} asked until it says
 * {@code "ready": true}, within a bound; a server that exits first is said with the tail of its log. Its answers are
 * another program's words: read within bounds.
 */
final class DriverStatus {
    private static final int MAX_ANSWER = 64 * 1024;

    private DriverStatus() {
    }

    /** Waits until the server at {@code base} is ready, {@code process} exits, or {@code timeout} passes. */
    static void awaitReady(URI base, Process process, Duration timeout, Path log) {
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
        long deadline = System.nanoTime() + timeout.toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            if (!process.isAlive()) {
                throw new BrowserLaunchException("WebKitWebDriver exited (code " + process.exitValue() + ") before it answered: "
                        + orNothing(tail(log)), "run it in a shell to see why", null);
            }
            try {
                HttpResponse<InputStream> r = http.send(HttpRequest.newBuilder(base.resolve("/status")).timeout(Duration.ofSeconds(2)).GET().build(),
                        HttpResponse.BodyHandlers.ofInputStream());
                String body;
                try (InputStream in = r.body()) {
                    body = new String(in.readNBytes(MAX_ANSWER), StandardCharsets.UTF_8);
                }
                if (r.statusCode() == 200 && body.replace(" ", "").contains("\"ready\":true")) {
                    return;
                }
                last = "HTTP " + r.statusCode() + " " + Untrusted.bounded(body, 200);
            } catch (IOException e) {
                last = e.getClass().getSimpleName();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new BrowserLaunchException("Interrupted while waiting for WebKitWebDriver", null, e);
            }
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new BrowserLaunchException("Interrupted while waiting for WebKitWebDriver", null, e);
            }
        }
        throw new BrowserLaunchException("WebKitWebDriver at " + base + " was not ready within " + timeout.toSeconds() + " s (" + last + ")",
                "run it in a shell to see why", null);
    }

    /** The last lines of a log a started program wrote, bounded and quoted; empty when there is none. */
    static String tail(Path log) {
        try {
            if (!Files.isRegularFile(log)) {
                return "";
            }
            byte[] last;
            try (java.nio.channels.SeekableByteChannel ch = Files.newByteChannel(log)) {
                long from = Math.max(0, ch.size() - 600);
                java.nio.ByteBuffer buf = java.nio.ByteBuffer.allocate((int) (ch.size() - from));
                ch.position(from);
                while (buf.hasRemaining() && ch.read(buf) > 0) {
                    // read the tail whole
                }
                last = java.util.Arrays.copyOf(buf.array(), buf.position());
            }
            String s = new String(last, StandardCharsets.UTF_8).strip();
            return s.isEmpty() ? "" : Untrusted.quote(s);
        } catch (IOException e) {
            return "";
        }
    }

    private static String orNothing(String s) {
        return s.isEmpty() ? "(nothing)" : s;
    }
}
