package dev.accelbridge.run;

import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * A real Selenium Grid for tests: the {@code selenium-grid} artifact on its own class path (module grid-runtime), started
 * as processes, standalone or hub + node, with the local ChromeDriver and Debian's Chromium configured so that nothing
 * is looked up or downloaded. Closing it stops every process.
 */
public final class SeleniumGrid implements AutoCloseable {
    private static final String CHROMIUM = "/usr/lib/chromium/chromium";
    private static final String CHROMEDRIVER = "/usr/bin/chromedriver";
    private final List<Process> processes = new ArrayList<>();
    private final URI url;
    private final int nodePort;

    private SeleniumGrid(URI url, int nodePort) {
        this.url = url;
        this.nodePort = nodePort;
    }

    /** Why a Grid cannot start here, or null when it can. */
    public static String unavailable() {
        if (!Files.isExecutable(Path.of(CHROMIUM)) || !Files.isExecutable(Path.of(CHROMEDRIVER))) {
            return "no " + CHROMIUM + " or " + CHROMEDRIVER + " on this host";
        }
        return Files.isRegularFile(classPathFile()) ? null : "the Grid's class path " + classPathFile()
                + " is missing (build the grid-runtime module first)";
    }

    /** One process that is router, distributor and node. */
    public static SeleniumGrid standalone(Path dir) throws IOException {
        int port = freePort();
        SeleniumGrid g = new SeleniumGrid(URI.create("http://127.0.0.1:" + port), port);
        g.start(dir, "standalone", "standalone", "--config", config(dir).toString(), "--host", "127.0.0.1", "--port", "" + port);
        g.awaitReady();
        return g;
    }

    /**
     * A standalone Grid on another host: inside {@code ns}, listening at its address on port 4444, its node offering
     * Chromium with the stereotype's extra capabilities {@code extra} (e.g. {@code "accelbridge:gpu":"software"}).
     */
    public static SeleniumGrid standaloneIn(NetworkNamespace ns, Path dir, String extra) throws IOException {
        SeleniumGrid g = new SeleniumGrid(URI.create("http://" + ns.address() + ":4444"), 4444);
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", Files.readString(classPathFile()).trim(), "org.openqa.selenium.grid.Main", "standalone", "--config",
                config(dir, extra).toString(), "--host", ns.address(), "--port", "4444"));
        g.processes.add(ns.start(cmd, ProcessBuilder.Redirect.to(dir.resolve("grid-" + ns.address() + ".log").toFile())));
        g.awaitReady();
        return g;
    }

    /** A hub and one node registering with it over the Grid's event bus, as a distributed Grid runs. */
    public static SeleniumGrid hubAndNode(Path dir) throws IOException {
        int hub = freePort();
        int pub = freePort();
        int sub = freePort();
        int node = freePort();
        SeleniumGrid g = new SeleniumGrid(URI.create("http://127.0.0.1:" + hub), node);
        String[] events = {"--publish-events", "tcp://127.0.0.1:" + pub, "--subscribe-events", "tcp://127.0.0.1:" + sub};
        g.start(dir, "hub", concat(new String[]{"hub", "--host", "127.0.0.1", "--port", "" + hub}, events));
        g.start(dir, "node", concat(new String[]{"node", "--config", config(dir).toString(), "--host", "127.0.0.1",
                "--port", "" + node}, events));
        g.awaitReady();
        return g;
    }

    /** The Grid's URL (what {@code --grid} takes). */
    public URI url() {
        return url;
    }

    /** The port of the Grid's (only) node. */
    public int nodePort() {
        return nodePort;
    }

    private static Path classPathFile() {
        return Path.of(System.getProperty("accelbridge.grid.classpath", "../grid-runtime/target/grid-classpath.txt"));
    }

    private static Path config(Path dir) throws IOException {
        return config(dir, "");
    }

    private static Path config(Path dir, String extra) throws IOException {
        Path toml = dir.resolve("grid.toml");
        Files.writeString(toml, """
                [node]
                detect-drivers = false
                selenium-manager = false
                max-sessions = 2

                [[node.driver-configuration]]
                display-name = "chromium"
                stereotype = '{"browserName":"chrome","platformName":"linux"%s,"goog:chromeOptions":{"binary":"%s"}}'
                webdriver-executable = "%s"
                max-sessions = 2
                """.formatted(extra.isEmpty() ? "" : "," + extra, CHROMIUM, CHROMEDRIVER));
        return toml;
    }

    private void start(Path dir, String name, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", Files.readString(classPathFile()).trim(), "org.openqa.selenium.grid.Main"));
        cmd.addAll(List.of(args));
        processes.add(new ProcessBuilder(cmd).redirectErrorStream(true).redirectOutput(dir.resolve(name + ".log").toFile()).start());
    }

    private void awaitReady() {
        HttpClient http = HttpClient.newHttpClient();
        long deadline = System.nanoTime() + Duration.ofSeconds(60).toNanos();
        String last = "no answer";
        while (System.nanoTime() < deadline) {
            try {
                HttpResponse<String> r = http.send(HttpRequest.newBuilder(url.resolve("/status")).build(),
                        HttpResponse.BodyHandlers.ofString());
                if (r.body().contains("\"ready\": true")) {
                    return;
                }
                last = r.body();
            } catch (IOException e) {
                last = e.toString();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            if (processes.stream().anyMatch(p -> !p.isAlive())) {
                break;
            }
            try {
                Thread.sleep(250);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        close();
        throw new IllegalStateException("the Selenium Grid at " + url + " did not become ready: " + last);
    }

    private static String[] concat(String[] a, String[] b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @Override
    public void close() {
        for (int i = processes.size() - 1; i >= 0; i--) {
            processes.get(i).destroy(); // the node before the hub
        }
        for (Process p : processes) {
            try {
                if (!p.waitFor(10, java.util.concurrent.TimeUnit.SECONDS)) {
                    p.destroyForcibly();
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
