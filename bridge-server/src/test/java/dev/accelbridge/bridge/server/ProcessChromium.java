package dev.accelbridge.bridge.server;

import dev.accelbridge.browser.launch.BrowserHandle;
import dev.accelbridge.browser.launch.BrowserKind;
import dev.accelbridge.browser.launch.BrowserLauncher;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.LaunchOptions;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Test launcher: Debian's real Chromium binary started as a plain headless process with a fresh profile, pointed at
 * the bridge URL. It lets the bridge tests run a real browser without depending on the launcher module's work.
 */
final class ProcessChromium implements BrowserLauncher {
    static final Path BINARY = Path.of("/usr/lib/chromium/chromium");

    static boolean installed() {
        return Files.isExecutable(BINARY);
    }

    static String version() {
        try {
            Process p = new ProcessBuilder(BINARY.toString(), "--version").redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes()).trim();
            p.waitFor(10, TimeUnit.SECONDS);
            return out.replaceAll("[^0-9.]", " ").trim().split("\\s+")[0];
        } catch (IOException | InterruptedException e) {
            return "unknown";
        }
    }

    @Override
    public DriverKind driver() {
        return DriverKind.PROCESS;
    }

    @Override
    public BrowserHandle launch(LaunchOptions options, URI url) {
        try {
            Path profile = Files.createTempDirectory("accelbridge-test-chromium");
            List<String> cmd = new ArrayList<>(List.of(BINARY.toString(), "--headless", "--no-sandbox",
                    "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run",
                    "--disable-gpu-sandbox", "--user-data-dir=" + profile));
            cmd.addAll(options.extraArgs());
            cmd.add(url.toString());
            Process p = new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(profile.resolve("chromium.log").toFile()).start();
            String version = version();
            return new BrowserHandle() {
                public BrowserKind browser() { return BrowserKind.CHROMIUM; }
                public DriverKind driver() { return DriverKind.PROCESS; }
                public String version() { return version; }
                public String executable() { return BINARY.toString(); }
                public boolean isAlive() { return p.isAlive(); }
                public OptionalLong pid() { return OptionalLong.of(p.pid()); }
                public void kill() {
                    p.descendants().forEach(ProcessHandle::destroyForcibly);
                    p.destroyForcibly();
                }
                public void close() {
                    kill();
                    try {
                        p.waitFor(5, TimeUnit.SECONDS);
                        try (Stream<Path> s = Files.walk(profile)) {
                            s.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
                        }
                    } catch (IOException | InterruptedException e) {
                        // best effort
                    }
                }
            };
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
