package dev.accelbridge.nativerunner.process;

import com.sun.net.httpserver.HttpServer;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendUnavailableException;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.nativerunner.TinyOnnx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ONNX Runtime jars fetched into Accelbridge's cache from a Maven repository on loopback (serving the build's own 1.19.0
 * jar in Maven's layout), verified at every use: an edited jar is fetched again, a repository's oversized {@code .sha1} is
 * refused in a bounded line, and a runner that logs to standard output still answers.
 */
class OrtJarsTest {
    static final String V = ProcessRuntimeProviderTest.OLDER;
    @TempDir
    static Path tmp;
    static HttpServer repo;
    static String base;
    static final Map<String, byte[]> FILES = new ConcurrentHashMap<>();
    static final AtomicInteger JAR_DOWNLOADS = new AtomicInteger();

    @BeforeAll
    static void repository() throws IOException {
        Path m2 = Path.of(System.getProperty("maven.repo.local", Path.of(System.getProperty("user.home"), ".m2", "repository").toString()))
                .resolve("com/microsoft/onnxruntime/onnxruntime").resolve(V);
        String path = "/maven2/com/microsoft/onnxruntime/onnxruntime/" + V + "/onnxruntime-" + V + ".jar";
        FILES.put(path, Files.readAllBytes(m2.resolve("onnxruntime-" + V + ".jar")));
        FILES.put(path + ".sha1", Files.readAllBytes(m2.resolve("onnxruntime-" + V + ".jar.sha1")));
        FILES.put("/huge/com/microsoft/onnxruntime/onnxruntime/" + V + "/onnxruntime-" + V + ".jar.sha1",
                "f".repeat(1_000_000).getBytes(StandardCharsets.US_ASCII));
        repo = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        repo.createContext("/", x -> {
            byte[] body = FILES.get(x.getRequestURI().getPath());
            if (body == null) {
                x.sendResponseHeaders(404, -1);
            } else {
                if (x.getRequestURI().getPath().endsWith(".jar")) {
                    JAR_DOWNLOADS.incrementAndGet();
                }
                x.sendResponseHeaders(200, x.getRequestMethod().equals("HEAD") ? -1 : body.length);
                if (!x.getRequestMethod().equals("HEAD")) {
                    x.getResponseBody().write(body);
                }
            }
            x.close();
        });
        repo.start();
        base = "http://127.0.0.1:" + repo.getAddress().getPort();
    }

    @AfterAll
    static void stop() {
        repo.stop(0);
    }

    /** Jars from the loopback repository into {@code cache}, with an empty local repository. */
    private static OrtJars jars(Path cache, String under) throws IOException {
        return new OrtJars(cache, Files.createDirectories(tmp.resolve("empty-m2")), base + under);
    }

    @Test
    void anEditedJarInTheCacheIsNotLoadedButFetchedAgain() throws IOException {
        Path cache = Files.createDirectories(tmp.resolve("cache-edit"));
        OrtJars jars = jars(cache, "/maven2/");
        OrtJars.Jar first = jars.jar(V);
        assertThat(first.source()).startsWith("cache");
        assertThat(first.sha1()).isEqualTo(new String(FILES.values().stream().filter(b -> b.length == 40).findFirst().orElseThrow(),
                StandardCharsets.US_ASCII).strip());
        int downloads = JAR_DOWNLOADS.get();
        assertThat(jars.jar(V).file()).isEqualTo(first.file());
        assertThat(JAR_DOWNLOADS.get()).as("a verified cached jar is not fetched again").isEqualTo(downloads);
        // found when tried: an edited jar in the cache (its SHA-1 no longer the published one) was loaded and PASSED
        Files.write(first.file(), new byte[] {0x50, 0x4b}, StandardOpenOption.APPEND);
        OrtJars.Jar again = jars.jar(V);
        assertThat(JAR_DOWNLOADS.get()).isEqualTo(downloads + 1);
        assertThat(again.repaired()).contains("onnxruntime-" + V + ".jar").contains("recorded at unpacking");
        // found when tried: the repair was noted, never said: what provenance records of the jar says it
        assertThat(again.verified()).contains("the cached copy was fetched again").contains("recorded at unpacking");
        assertThat(again.sha256()).isEqualTo(first.sha256());
        assertThat(jars.installed()).contains(V);
    }

    @Test
    void anOversizedSha1FromTheRepositoryIsABoundedOneLineReason() throws IOException {
        // found when tried: a 1,000,000-character .sha1 body became a 1,000,251-character reason that merge refused
        OrtJars jars = jars(Files.createDirectories(tmp.resolve("cache-huge")), "/huge/");
        assertThatThrownBy(() -> jars.jar(V)).isInstanceOfSatisfying(BackendUnavailableException.class, e -> {
            assertThat(e.getMessage()).contains("is not a SHA-1", "runs past 1024 bytes");
            assertThat(e.getMessage().length()).isLessThan(400);
        });
    }

    @Test
    void whatCanBeHadIsAskedOnceForAllVersions() throws IOException {
        Map<String, String> can = jars(Files.createDirectories(tmp.resolve("cache-ask")), "/maven2/").obtainable(List.of(V, "1.19.1", "0.0.1"));
        assertThat(can).containsEntry(V, null);
        assertThat(can.get("1.19.1")).contains("HTTP 404");
        assertThat(can.get("0.0.1")).contains("HTTP 404");
    }

    @Test
    void aRunnerWhoseJvmLogsToStandardOutputStillAnswersAndItsProvenanceNamesTheVerifiedJar() throws Exception {
        // found when tried: a JVM option that logs to stdout broke the runner's JSON-lines protocol with an opaque
        // Jackson message; -verbose:class writes a line there for every class the runner loads
        ModelSpec spec = TinyOnnx.write(TinyOnnx.mlp(4, 8, 3, 2, 3L), tmp, "mlp-log");
        OrtJars jars = jars(Files.createDirectories(tmp.resolve("cache-run")), "/maven2/");
        try (ProcessRuntimeProvider p = new ProcessRuntimeProvider(V, jars, List.of("-verbose:class", "-Xlog:gc*=info:stdout"))) {
            Execution e = p.execute(new ExecutionRequest(BackendId.CPU, new ModelCase(spec, "test", List.of(NamedTensor.ofFloats("x",
                    new long[] {2, 4}, new float[] {1, -2, 3, 0.5f, -1, 0.25f, 2, -3})), Optional.empty()), 1, 2, Duration.ofMinutes(1)));
            assertThat(e.outputs()).isNotEmpty();
            assertThat(e.provenance().runtimeVersions()).containsEntry("onnxruntime", V);
            assertThat(e.provenance().verified()).containsKey("onnxruntime " + V + " jar");
            assertThat(e.provenance().verified().get("onnxruntime " + V + " jar")).startsWith("sha256 ").contains("as published");
            assertThat(p.probe(BackendId.CPU).available()).isTrue();
        }
    }
}
