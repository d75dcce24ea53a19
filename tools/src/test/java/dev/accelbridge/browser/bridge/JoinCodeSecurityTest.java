package dev.accelbridge.bridge;

import dev.accelbridge.browser.testing.RequiresBrowser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.tools.cli.CliRunner;
import dev.accelbridge.tools.cli.Main;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * No secret on a command line. Found when tried: with {@code --driver process} (Firefox always uses
 * it) the launched browser's command line held {@code /?token=<32 hex>}, which {@code ps} shows every local user.
 * Launched browsers now get a one-time join code, spent on first contact for the token's HttpOnly cookie.
 */
class JoinCodeSecurityTest {
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path tmp;

    @Test
    void aLaunchedBrowsersUrlCarriesASingleUseCodeThatBuysTheCookieOnce() throws Exception {
        String token = "0123456789abcdef0123456789abcdef";
        try (BridgeServer server = BridgeServer.start(BridgeOptions.builder().token(token).build())) {
            URI url = server.pageUrl("slot-1");
            assertThat(url.getQuery()).startsWith("join=").contains("slot=slot-1").doesNotContain(token).doesNotContain("token");
            // a person's URL (what serve prints) still carries the token: it goes to their terminal, not to a command line
            assertThat(server.pageUrl().getQuery()).isEqualTo("token=" + token);

            HttpResponse<String> first = HTTP.send(HttpRequest.newBuilder(url).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(first.statusCode()).isEqualTo(200);
            String cookie = first.headers().firstValue("Set-Cookie").orElseThrow();
            assertThat(cookie).startsWith(BridgeAccess.TOKEN_COOKIE + "=" + token + ";").contains("HttpOnly", "SameSite=Strict");

            // spent: whoever reads the code afterwards (ps, a log, the page's history) gets nothing with it
            HttpResponse<String> again = HTTP.send(HttpRequest.newBuilder(url).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(again.statusCode()).isEqualTo(401);
            assertThat(again.headers().firstValue("Set-Cookie")).isEmpty();
            // a made-up code is no better
            URI guessed = URI.create(server.baseUrl() + "/?join=00000000000000000000000000000000&slot=x");
            assertThat(HTTP.send(HttpRequest.newBuilder(guessed).build(), HttpResponse.BodyHandlers.discarding()).statusCode()).isEqualTo(401);

            // the browser that spent it goes on with its cookie: a reload, the models, and the WebSocket
            String jar = cookie.substring(0, cookie.indexOf(';'));
            assertThat(HTTP.send(HttpRequest.newBuilder(url).header("Cookie", jar).build(), HttpResponse.BodyHandlers.discarding())
                    .statusCode()).isEqualTo(200);
            URI ws = URI.create("ws://127.0.0.1:" + server.port() + "/ws");
            try (WsClient page = new WsClient(ws, "http://127.0.0.1:" + server.port(), Map.of("Cookie", jar))) {
                assertThat(page.hello().path("type").asText()).isEqualTo("welcome");
            }
            try (WsClient stranger = new WsClient(ws, "http://127.0.0.1:" + server.port())) {
                assertThat(stranger.next().path("code").asText()).isEqualTo("forbidden");
            }
        }
    }

    @Test
    void aCodeLivesSecondsAndOnlyOnce() {
        Instant t0 = Instant.parse("2026-01-01T00:00:00Z");
        Clock[] now = {Clock.fixed(t0, ZoneOffset.UTC)};
        JoinCodes codes = new JoinCodes(new Clock() {
            @Override
            public java.time.ZoneId getZone() {
                return ZoneOffset.UTC;
            }

            @Override
            public Clock withZone(java.time.ZoneId zone) {
                return this;
            }

            @Override
            public Instant instant() {
                return now[0].instant();
            }
        });
        String a = codes.issue();
        String b = codes.issue();
        assertThat(a).hasSize(32).isNotEqualTo(b);
        assertThat(codes.redeem(a)).isTrue();
        assertThat(codes.redeem(a)).as("second use").isFalse();
        now[0] = Clock.fixed(t0.plus(JoinCodes.TTL).plusSeconds(1), ZoneOffset.UTC);
        assertThat(codes.redeem(b)).as("after its time").isFalse();
        assertThat(codes.redeem(null)).isFalse();
    }

    /** The test the issue asks for: a real run with --driver process while a thread reads every process's command line. */
    @RequiresBrowser
    @Test
    void noProcessCommandLineHoldsTheTokenDuringAProcessDriverRun() throws Exception {
        assumeTrue(Files.isDirectory(Path.of("/proc/self")), "no /proc to read command lines from");
        Set<String> seen = ConcurrentHashMap.newKeySet();
        AtomicBoolean stop = new AtomicBoolean();
        Thread reader = new Thread(() -> {
            while (!stop.get()) {
                // every process's command line is read; those this run started (the browser and its helpers) are kept,
                // and any other that names a page slot (an unrelated shell that greps for "token=" is not the run's)
                Set<String> ours = new java.util.HashSet<>();
                ProcessHandle.current().descendants().forEach(h -> ours.add(Long.toString(h.pid())));
                try (Stream<Path> procs = Files.list(Path.of("/proc"))) {
                    procs.filter(p -> p.getFileName().toString().chars().allMatch(Character::isDigit)).forEach(p -> {
                        try {
                            String cmd = new String(Files.readAllBytes(p.resolve("cmdline"))).replace('\0', ' ');
                            if (ours.contains(p.getFileName().toString()) || cmd.contains("slot=")) {
                                seen.add(cmd);
                            }
                        } catch (Exception gone) {
                            // the process ended between listing and reading
                        }
                    });
                } catch (Exception e) {
                    // keep reading
                }
                try {
                    Thread.sleep(20);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }, "cmdline-reader");
        reader.start();
        CliRunner.Result r;
        try {
            // --advertise exposes the bridge, so the run makes a token and every request needs it
            r = CliRunner.run("run", "--backends", "wasm", "--suites", "text", "--browser", "chromium", "--driver", "process",
                    "--advertise", "http://127.0.0.1:0", "--warmups", "0", "--iterations", "1", "--min-duration", "0", "--warmup-duration", "0", "--json",
                    "--db", tmp.resolve("m.duckdb").toString(), "--out", tmp.resolve("out").toString());
        } finally {
            stop.set(true);
            reader.join();
        }
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        JsonNode arr = new ObjectMapper().readTree(r.out());
        assertThat(arr).isNotEmpty().allSatisfy(n -> assertThat(n.get("status").asText()).as(n.toString()).isEqualTo("PASSED"));
        assertThat(seen).as("the launched browser was seen, its URL carrying a join code")
                .anySatisfy(c -> assertThat(c).contains("join=", "slot="));
        assertThat(seen).noneSatisfy(c -> assertThat(c).contains("token="));
        try (Stream<Path> files = Files.walk(tmp)) {
            for (Path f : files.filter(Files::isRegularFile).filter(f -> !f.toString().endsWith(".duckdb")).toList()) {
                assertThat(Files.readString(f, java.nio.charset.StandardCharsets.ISO_8859_1)).as(f.toString()).doesNotContain("token=");
            }
        }
    }
}
