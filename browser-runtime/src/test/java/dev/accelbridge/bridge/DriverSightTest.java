package dev.accelbridge.bridge;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import dev.accelbridge.bridge.hub.ConnectedPage;
import dev.accelbridge.bridge.hub.ExecutionProviderSpec;
import dev.accelbridge.bridge.hub.LoadedSession;
import dev.accelbridge.bridge.hub.PageSessions;
import dev.accelbridge.bridge.hub.RunOutcome;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.browser.testing.TestChromium;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Parity;
import dev.accelbridge.nativerunner.TinyOnnx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The page's connection to the bridge is out of the automation driver's sight: Playwright forwards every frame of a page's
 * WebSockets to its client (base64, in its own JSON protocol, listened to or not), so every tensor would cross three more
 * times. The page holds its socket in a shared worker, which Playwright does not attach to: a case with megabytes in and out
 * runs and matches while the client is told of no socket and no frame. Without shared workers the page opens the socket
 * itself, and the client sees it all (what this test would see without the relay).
 */
@RequiresBrowser
class DriverSightTest {
    static BridgeServer server;
    static Playwright pw;
    static Browser browser;

    @BeforeAll
    static void start() {
        server = BridgeServer.start(BridgeOptions.defaults());
        pw = Playwright.create(new Playwright.CreateOptions().setEnv(Map.of("PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD", "1")));
        browser = TestChromium.launch(pw);
    }

    @AfterAll
    static void stop() {
        if (pw != null) {
            pw.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void theClientSeesNoFrameOfTheBridgeConnection() throws Exception {
        Seen seen = run("relayed", false);
        assertThat(seen.via).isEqualTo("WebSocket held by the shared worker");
        assertThat(seen.sockets.get()).as("WebSockets the client was told of").isZero();
        assertThat(seen.bytes.get()).as("frame bytes the client was sent").isZero();
    }

    @Test
    void withoutSharedWorkersThePageHoldsTheSocketAndTheClientSeesEveryFrame() throws Exception {
        Seen seen = run("direct", true);
        assertThat(seen.via).isEqualTo("WebSocket held by the page (no shared workers in this browser)");
        assertThat(seen.sockets.get()).isEqualTo(1);
        assertThat(seen.bytes.get()).as("the inputs and outputs, mirrored").isGreaterThan(seen.tensorBytes);
    }

    /** What the client was told while a case with {@code Seen.tensorBytes} of inputs and outputs ran on a page. */
    private record Seen(String via, AtomicInteger sockets, AtomicLong bytes, long tensorBytes) {
    }

    private static Seen run(String slot, boolean noSharedWorker) throws Exception {
        AtomicInteger sockets = new AtomicInteger();
        AtomicLong bytes = new AtomicLong();
        try (var context = browser.newContext()) {
            Page page = context.newPage();
            if (noSharedWorker) {
                page.addInitScript("delete window.SharedWorker");
            }
            page.onWebSocket(ws -> {
                sockets.incrementAndGet();
                ws.onFrameSent(f -> bytes.addAndGet(f.binary() != null ? f.binary().length : f.text().length()));
                ws.onFrameReceived(f -> bytes.addAndGet(f.binary() != null ? f.binary().length : f.text().length()));
            });
            page.navigate(server.pageUrl(slot).toString());
            ConnectedPage p = server.awaitPage(slot, Duration.ofSeconds(60));
            int rows = 20_000; // 1.28 MB in, 0.64 MB out
            TinyOnnx.Mlp mlp = TinyOnnx.mlp(16, 32, 8, 2, 3L);
            float[] x = new float[rows * 16];
            for (int i = 0; i < x.length; i++) {
                x[i] = (float) Math.cos(i * 0.11);
            }
            double[] ref = mlp.forward(x, rows);
            float[] reff = new float[ref.length];
            for (int i = 0; i < ref.length; i++) {
                reff[i] = (float) ref[i];
            }
            LoadedSession s = PageSessions.of(p).loadBytes("mlp", mlp.bytes(), ExecutionProviderSpec.of(BackendId.WASM), Duration.ofSeconds(60))
                    .get(60, TimeUnit.SECONDS);
            RunOutcome r = PageSessions.of(p).run(s.sessionId(), List.of(NamedTensor.ofFloats("x", new long[] {rows, 16}, x)), 0, 2,
                    Duration.ofSeconds(60)).get(60, TimeUnit.SECONDS);
            PageSessions.of(p).release(s.sessionId(), Duration.ofSeconds(10)).get(10, TimeUnit.SECONDS);
            Parity parity = Parity.compare(List.of(NamedTensor.ofFloats("y", new long[] {rows, 8}, reff)), r.outputs(), 1e-5, "exact");
            assertThat(parity.within()).as(parity.toString()).isTrue();
            // a round trip through the driver after the case: every event sent before it has reached the client
            String via = (String) page.evaluate("() => [...document.querySelectorAll('#facts tr')]"
                    + ".map(tr => tr.cells).filter(c => c[0].textContent === 'bridge connection').map(c => c[1].textContent)[0] || ''");
            return new Seen(via, sockets, bytes, (long) x.length * 4 + reff.length * 4L);
        }
    }
}
