package dev.accelbridge.tools.cli;

import com.sun.net.httpserver.HttpServer;
import dev.accelbridge.nativerunner.DjlOnnxRuntimeProvider;
import dev.accelbridge.nativerunner.TinyOnnx;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What the command line says about versions it cannot use: one bounded, clean line naming the right option; a version
 * no cell holds named as such; and a version range whose versions cannot all be had asked about once, up front.
 */
class FetchedCodeCliTest {
    @TempDir
    static Path tmp;
    static Path model;
    static final String HERE = DjlOnnxRuntimeProvider.environment().ortVersion();

    @BeforeAll
    static void model() throws Exception {
        model = TinyOnnx.write(TinyOnnx.mlp(4, 8, 3, 2, 9L), Files.createDirectories(tmp.resolve("m")), "mlp").path();
    }

    @Test
    void aBadVersionIsQuotedInEightyCharactersOnOneCleanLineNamingItsOption() {
        // found when tried: a 100 KB bad version was echoed whole, --ort-web's error called it an "ONNX Runtime version",
        // and raw escape characters reached the terminal
        CliRunner.Result r = CliRunner.run("run", "--ort-web", "x".repeat(100_000));
        assertThat(r.exitCode()).isEqualTo(Main.ERROR);
        assertThat(r.err().strip().lines()).hasSize(1);
        assertThat(r.err()).contains("--ort-web", "onnxruntime-web version", "(100,000 characters)").doesNotContain("ONNX Runtime version");
        assertThat(r.err().length()).isLessThan(300);
        CliRunner.Result ort = CliRunner.run("run", "--ort", "1.2\u001B[31mRED");
        assertThat(ort.exitCode()).isEqualTo(Main.ERROR);
        assertThat(ort.err()).contains("--ort", "ONNX Runtime version", "'1.2RED'").doesNotContain("\u001B");
        CliRunner.Result unknown = CliRunner.run("run", "--" + "z".repeat(5000));
        assertThat(unknown.exitCode()).isEqualTo(Main.ERROR);
        assertThat(unknown.err().length()).isLessThan(300);
        CliRunner.Result range = CliRunner.run("bisect-versions", "--model", model.toString(), "--backend", "wasm", "--ort-web",
                "y".repeat(200) + "..1.2", "--db", tmp.resolve("never.duckdb").toString());
        assertThat(range.exitCode()).isEqualTo(Main.ERROR);
        assertThat(range.err()).contains("--ort-web", "(200 characters)");
        assertThat(range.err().length()).isLessThan(300);
    }

    @Test
    void comparingByAVersionNoCellHoldsNamesThatVersionInsteadOfCallingEveryCellAbsent() {
        String db = tmp.resolve("c.duckdb").toString();
        CliRunner.Result run = CliRunner.run("run", "--native", "--model", model.toString(), "--dim", "batch=1", "--db", db,
                "--out", tmp.resolve("out-c").toString(), "--warmups", "0", "--iterations", "1");
        assertThat(run.exitCode()).as(run.err()).isEqualTo(Main.OK);
        CliRunner.Result r = CliRunner.run("compare", "--db", db, "--by", "ortVersion", HERE, "9.9.9");
        assertThat(r.exitCode()).isEqualTo(Main.ERROR);
        assertThat(r.err()).contains("ortVersion '9.9.9'", "it has " + HERE);
        assertThat(r.out()).doesNotContain("absent");
    }

    @Test
    void aRangeListsWhatCanBeHadOnceAndProbesOnlyThat() throws Exception {
        // found when tried: a bisection probed 19 of 20 versions one by one that Maven Central's copy lists but does not
        // serve. A repository on loopback lists four versions and serves the jar of none (the local repository has 1.19.0)
        AtomicInteger jarAsks = new AtomicInteger();
        HttpServer repo = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        repo.createContext("/", x -> {
            String path = x.getRequestURI().getPath();
            if (path.endsWith("maven-metadata.xml")) {
                byte[] body = ("<metadata><versioning><versions><version>1.19.0</version><version>1.19.2</version>"
                        + "<version>1.20.0</version><version>" + HERE + "</version></versions></versioning></metadata>").getBytes(StandardCharsets.UTF_8);
                x.sendResponseHeaders(200, body.length);
                x.getResponseBody().write(body);
            } else {
                jarAsks.incrementAndGet();
                x.sendResponseHeaders(404, -1);
            }
            x.close();
        });
        repo.start();
        System.setProperty("accelbridge.maven.repo", "http://127.0.0.1:" + repo.getAddress().getPort() + "/maven2/");
        try {
            CliRunner.Result r = CliRunner.run("bisect-versions", "--db", tmp.resolve("b.duckdb").toString(), "--out",
                    tmp.resolve("out-b").toString(), "--model", model.toString(), "--dim", "batch=1", "--backend", "cpu",
                    "--ort", "1.19.0.." + HERE, "--json");
            assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
            assertThat(r.err()).contains("left out (cannot be had here): 1.19.2 (", "1.20.0 (", "HTTP 404");
            assertThat(jarAsks).as("one question per version that is not at hand").hasValue(2);
            assertThat(r.out()).contains("\"changed\" : false").contains("\"1.19.0\" : \"PASSED\"", "\"" + HERE + "\" : \"PASSED\"")
                    .doesNotContain("\"1.19.2\" :", "\"1.20.0\" :");
        } finally {
            System.clearProperty("accelbridge.maven.repo");
            repo.stop(0);
        }
    }
}
