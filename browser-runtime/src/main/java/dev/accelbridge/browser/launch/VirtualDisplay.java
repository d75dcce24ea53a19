package dev.accelbridge.browser.launch;

import dev.accelbridge.core.Untrusted;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * An X server of its own for a browser that has no headless mode (WebKitGTK's MiniBrowser): {@code Xvfb} on a display
 * number it picks itself ({@code -displayfd}: it writes the number once it accepts clients, so there is no race for a
 * free number and no polling for its socket), listening on no TCP port. Closing it ends the server.
 */
final class VirtualDisplay implements AutoCloseable {
    private final Process process;
    private final String name;

    private VirtualDisplay(Process process, String name) {
        this.process = process;
        this.name = name;
    }

    /**
     * The display a browser of {@code headless} options uses: none of its own ({@code empty}) when it is to show on the
     * user's screen and one is there ({@code DISPLAY} or {@code WAYLAND_DISPLAY}); else a virtual one.
     */
    static boolean needed(boolean headless, Map<String, String> env) {
        return headless || (blank(env.get("DISPLAY")) && blank(env.get("WAYLAND_DISPLAY")));
    }

    /**
     * Starts {@code Xvfb}, waiting at most {@code timeout} for it to accept clients.
     *
     * @throws BrowserLaunchException when there is no Xvfb or it did not start, with its own words
     */
    static VirtualDisplay start(Duration timeout) {
        Path xvfb = BrowserDiscovery.resolve("Xvfb").orElseThrow(() -> new BrowserLaunchException(
                "WebKitGTK needs an X display and this machine has none: no DISPLAY and no Xvfb on PATH",
                "apt-get install xvfb (./setup.sh does), or run with a display and --headed", null));
        Process p;
        try {
            p = new ProcessBuilder(List.of(xvfb.toString(), "-displayfd", "1", "-nolisten", "tcp", "-screen", "0", "1280x800x24"))
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            p.getOutputStream().close();
        } catch (IOException e) {
            throw new BrowserLaunchException("Could not start " + xvfb + ": " + e.getMessage(), "check that Xvfb starts from a shell", e);
        }
        CompletableFuture<String> number = CompletableFuture.supplyAsync(() -> firstLine(p.getInputStream()));
        try {
            String n = number.get(timeout.toMillis(), TimeUnit.MILLISECONDS).strip();
            if (!n.matches("\\d{1,5}")) {
                throw new IOException("it wrote " + Untrusted.quote(n) + " for its display number");
            }
            return new VirtualDisplay(p, ":" + n);
        } catch (Exception e) {
            p.destroyForcibly();
            if (e instanceof InterruptedException) {
                Thread.currentThread().interrupt();
            }
            String why = e instanceof java.util.concurrent.TimeoutException ? "it gave no display within " + timeout.toSeconds() + " s"
                    : p.isAlive() ? LaunchSupport.firstLine(e) : "it exited (code " + exitCode(p) + ")";
            throw new BrowserLaunchException("Xvfb (" + xvfb + ") did not start: " + why, "run 'Xvfb -displayfd 1' in a shell to see why", e);
        }
    }

    /** The Xvfb process, for a launch's lease ({@link LaunchLeases}). */
    ProcessHandle handle() {
        return process.toHandle();
    }

    /** {@code :N}, the value of {@code DISPLAY} for a client. */
    String name() {
        return name;
    }

    @Override
    public void close() {
        process.destroy();
        try {
            if (!process.waitFor(2, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            process.destroyForcibly();
            Thread.currentThread().interrupt();
        }
    }

    /** Runs {@code work} with a virtual display's name, the display closed after. */
    static <T> T with(Duration timeout, java.util.function.Function<String, T> work) {
        try (VirtualDisplay d = start(timeout)) {
            return work.apply(d.name());
        }
    }

    private static String firstLine(InputStream in) {
        StringBuilder b = new StringBuilder();
        try {
            for (int c; (c = in.read()) >= 0 && c != '\n' && b.length() < 64; ) {
                b.append((char) c);
            }
        } catch (IOException e) {
            // a closed pipe: what was read is the answer
        }
        return b.toString();
    }

    private static String exitCode(Process p) {
        return Optional.of(p).filter(x -> !x.isAlive()).map(x -> String.valueOf(x.exitValue())).orElse("?");
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }

    @Override
    public String toString() {
        return "Xvfb " + name;
    }
}
