package dev.accelbridge.tools.cli;

import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.browser.launch.BrowserHandle;
import dev.accelbridge.browser.launch.BrowserLaunchers;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.LaunchOptions;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.reports.store.RunInfo;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLHandshakeException;
import javax.net.ssl.TrustManager;
import javax.net.ssl.X509TrustManager;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.cert.CertificateException;
import java.security.cert.X509Certificate;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Real devices joining {@code serve}: a page over TLS whose certificate is pinned by the fingerprint the bridge printed,
 * and two browsers joined at once, each given its run at the same time and recorded as the device it is.
 */
class ServeDevicesTest {
    @TempDir
    Path tmp;

    @RequiresBrowser
    @Test
    void aPageJoinsOverTlsWithThePrintedFingerprintPinned() throws Exception {
        Path db = tmp.resolve("tls.duckdb");
        ServedCli serve = new ServedCli("serve", "--tls", "--pages", "1", "--suites", "text", "--backends", "wasm,webgpu",
                "--warmups", "1", "-n", "2", "--min-duration", "0", "--warmup-duration", "0", "--db", db.toString());
        String pageUrl = serve.url.get(120, TimeUnit.SECONDS);
        assertThat(pageUrl).startsWith("https://");
        Thread.sleep(200); // the TLS lines follow the URLs
        String fingerprint = serve.line("TLS certificate SHA-256 fingerprint:").replace(" (self-signed, made now)", "");
        String pin = serve.line("Chromium trusts exactly this key with: --ignore-certificate-errors-spki-list=");
        assertThat(fingerprint).matches("([0-9A-F]{2}:){31}[0-9A-F]{2}");

        // a client that trusts only the printed fingerprint reaches the bridge; one pinned to another fingerprint does not
        URI health = URI.create(pageUrl).resolve("/api/health");
        HttpResponse<String> ok = pinnedClient(fingerprint).send(HttpRequest.newBuilder(health).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(ok.statusCode()).isEqualTo(200);
        assertThat(ok.headers().firstValue("Cross-Origin-Opener-Policy")).contains("same-origin");
        String wrong = fingerprint.substring(0, fingerprint.length() - 2) + (fingerprint.endsWith("00") ? "11" : "00");
        assertThatThrownBy(() -> pinnedClient(wrong).send(HttpRequest.newBuilder(health).build(), HttpResponse.BodyHandlers.ofString()))
                .isInstanceOf(SSLHandshakeException.class);

        // Chromium, trusting exactly that key, opens the HTTPS page; it joins over WSS and runs its cases
        try (BrowserHandle browser = BrowserLaunchers.forDriver(DriverKind.PLAYWRIGHT).launch(LaunchOptions.builder()
                .browser(BrowserKind.CHROMIUM).driver(DriverKind.PLAYWRIGHT)
                .addArgs(List.of("--ignore-certificate-errors-spki-list=" + pin)).build(), URI.create(pageUrl))) {
            assertThat(serve.exit.get(240, TimeUnit.SECONDS)).as(serve.err.toString()).isEqualTo(Main.OK);
        }
        assertThat(serve.err.toString()).contains("joined: ").doesNotContain("not a secure context");
        try (MatrixStore store = MatrixStore.open(db)) {
            List<RunResult> results = store.results(store.latestRun().orElseThrow());
            assertThat(results).hasSize(2).allSatisfy(r -> {
                assertThat(r.status()).as(r.reason()).isEqualTo(Status.PASSED);
                assertThat(r.provenance().host()).startsWith("device 127.0.0.1 (Linux");
                assertThat(r.provenance().hostFingerprint()).startsWith("device-");
                assertThat(r.parity().orElseThrow().against()).startsWith("native-cpu (reference from host ");
            });
            assertThat(store.hosts()).containsKey(results.get(0).provenance().hostFingerprint());
        }
    }

    @RequiresBrowser({BrowserKind.CHROMIUM, BrowserKind.CHROMIUM_SHELL})
    @Test
    void twoPagesJoinedAtOnceRunInParallelEachAsTheDeviceItIs() throws Exception {
        Path db = tmp.resolve("two.duckdb");
        ServedCli serve = new ServedCli("serve", "--pages", "2", "--suites", "text,vision,audio", "--backends", "wasm",
                "--warmups", "1", "-n", "5", "--min-duration", "0", "--warmup-duration", "0", "--db", db.toString());
        URI pageUrl = URI.create(serve.url.get(120, TimeUnit.SECONDS));
        try (BrowserHandle a = BrowserLaunchers.forDriver(DriverKind.PROCESS).launch(
                LaunchOptions.builder().browser(BrowserKind.CHROMIUM).driver(DriverKind.PROCESS).build(), pageUrl);
             BrowserHandle b = BrowserLaunchers.forDriver(DriverKind.PROCESS).launch(
                LaunchOptions.builder().browser(BrowserKind.CHROMIUM_SHELL).driver(DriverKind.PROCESS).build(), pageUrl)) {
            assertThat(serve.exit.get(300, TimeUnit.SECONDS)).as(serve.err.toString()).isEqualTo(Main.OK);
        }
        try (MatrixStore store = MatrixStore.open(db)) {
            List<RunInfo> runs = store.runs();
            assertThat(runs).hasSize(2);
            Map<String, List<RunResult>> byRun = runs.stream().collect(Collectors.toMap(RunInfo::runId, r -> store.results(r.runId())));
            byRun.values().forEach(rs -> assertThat(rs).hasSize(4).allSatisfy(r -> assertThat(r.status()).as(r.reason()).isEqualTo(Status.PASSED)));
            // each run is one device, and the two are told apart by their own facts
            List<String> hosts = byRun.values().stream().map(rs -> rs.get(0).provenance().hostFingerprint()).distinct().toList();
            assertThat(hosts).hasSize(2).allSatisfy(h -> assertThat(h).startsWith("device-"));
            byRun.values().forEach(rs -> assertThat(rs).extracting(r -> r.provenance().hostFingerprint()).containsOnly(rs.get(0).provenance().hostFingerprint()));
            // the two pages were given their jobs at the same time
            RunInfo x = runs.get(0);
            RunInfo y = runs.get(1);
            assertThat(x.startedAt().isBefore(y.finishedAt()) && y.startedAt().isBefore(x.finishedAt()))
                    .as("runs %s–%s and %s–%s overlap", x.startedAt(), x.finishedAt(), y.startedAt(), y.finishedAt()).isTrue();
        }
    }

    private static HttpClient pinnedClient(String fingerprint) throws Exception {
        TrustManager pinned = new X509TrustManager() {
            @Override
            public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
                throw new CertificateException("not a server");
            }

            @Override
            public void checkServerTrusted(X509Certificate[] chain, String authType) throws CertificateException {
                try {
                    String hex = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(chain[0].getEncoded()))
                            .toUpperCase(Locale.ROOT);
                    if (!String.join(":", hex.split("(?<=\\G..)")).equals(fingerprint)) {
                        throw new CertificateException("certificate " + hex + " is not the pinned one");
                    }
                } catch (java.security.NoSuchAlgorithmException e) {
                    throw new CertificateException(e);
                }
            }

            @Override
            public X509Certificate[] getAcceptedIssuers() {
                return new X509Certificate[0];
            }
        };
        SSLContext ctx = SSLContext.getInstance("TLS");
        ctx.init(null, new TrustManager[] {pinned}, null);
        return HttpClient.newBuilder().sslContext(ctx).build();
    }
}
