package dev.accelbridge.run;

import java.io.File;
import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * A Playwright browser server for tests ({@code playwright run-server}, as Playwright's docs start one for Java: its CLI
 * class on the client's own class path, so both are the same version), inside a network namespace, taking clients' launch
 * options ({@code --unsafe}). Node is the system's. It ends with the namespace.
 */
public final class PlaywrightServer {
    private final URI endpoint;

    private PlaywrightServer(URI endpoint) {
        this.endpoint = endpoint;
    }

    /** Starts one in {@code ns} on port 3000 and waits until it listens. */
    public static PlaywrightServer startIn(NetworkNamespace ns, Path dir) throws IOException {
        String cp = String.join(File.pathSeparator, playwrightJars());
        Path log = dir.resolve("playwright-server.log");
        List<String> cmd = new ArrayList<>(List.of("env", "PLAYWRIGHT_NODEJS_PATH=/usr/bin/node", "PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1",
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp", cp, "com.microsoft.playwright.CLI",
                "run-server", "--port", "3000", "--host", ns.address(), "--unsafe"));
        ns.start(cmd, ProcessBuilder.Redirect.to(log.toFile()));
        for (int i = 0; i < 240; i++) {
            if (Files.exists(log) && Files.readString(log).contains("Listening on")) {
                return new PlaywrightServer(URI.create("ws://" + ns.address() + ":3000/"));
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        throw new IOException("the Playwright server did not start: " + (Files.exists(log) ? Files.readString(log) : "no log"));
    }

    /** Playwright's jars (and what its CLI needs) from this test's class path, a manifest-only jar expanded. */
    private static List<String> playwrightJars() throws IOException {
        List<String> out = new ArrayList<>();
        for (String e : System.getProperty("java.class.path").split(File.pathSeparator)) {
            List<String> entries = List.of(e);
            if (e.endsWith(".jar")) {
                try (java.util.jar.JarFile j = new java.util.jar.JarFile(e)) {
                    String cp = j.getManifest() == null ? null : j.getManifest().getMainAttributes().getValue("Class-Path");
                    if (cp != null) {
                        entries = java.util.Arrays.stream(cp.trim().split("\\s+"))
                                .map(u -> Path.of(Path.of(e).getParent().toUri().resolve(u)).toString()).toList();
                    }
                }
            }
            entries.stream().filter(p -> p.contains("playwright") || p.contains("gson") || p.contains("opentest4j")).forEach(out::add);
        }
        return out;
    }

    /** Its WebSocket endpoint (what {@code --connect} takes). */
    public URI endpoint() {
        return endpoint;
    }
}
