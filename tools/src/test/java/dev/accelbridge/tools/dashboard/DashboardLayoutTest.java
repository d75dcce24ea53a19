package dev.accelbridge.tools.dashboard;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import dev.accelbridge.bridge.BridgeOptions;
import dev.accelbridge.bridge.BridgeServer;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.testing.Nightly;
import dev.accelbridge.reports.Fixtures;
import dev.accelbridge.reports.LabelBoxes;
import dev.accelbridge.reports.LayoutFixture;
import dev.accelbridge.reports.store.MatrixStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard's matrix view in real Chromium over a store holding the default matrix (96 cells) and the op suite
 * (5,385): at 1280 and 1920 px no two rendered labels overlap, with the op suite folded and open. Screenshots go to
 * target/dashboard-screenshots.
 */
@Nightly(guardedBy = "DashboardTest") // docs/testing.md#the-nightly-tier
@RequiresBrowser
class DashboardLayoutTest {
    @TempDir
    Path tmp;

    @Test
    void theMatrixViewReadsWithTheDefaultRunAndTheOpSuite() throws Exception {
        Path shots = Files.createDirectories(Path.of("target", "dashboard-screenshots"));
        HostInfo h = Fixtures.host("ci-runner");
        try (MatrixStore store = MatrixStore.openForRun(tmp.resolve("m.duckdb"))) {
            String ops = store.beginRun(h, Map.of("accelbridge", "test"), "{}");
            store.writeAll(LayoutFixture.opSuite(ops, h));
            store.finishRun(ops);
            String def = store.beginRun(h, Map.of("accelbridge", "test"), "{}");
            store.writeAll(LayoutFixture.defaultRun(def, h));
            store.finishRun(def);
            try (Dashboard dashboard = new Dashboard(store, tmp.resolve("out"), Duration.ofMillis(300));
                 BridgeServer server = BridgeServer.start(BridgeOptions.builder().port(0).build(), List.of(dashboard.routes()));
                 Playwright pw = Playwright.create()) {
                Browser browser = dev.accelbridge.browser.testing.TestChromium.launch(pw);
                Page p = browser.newPage(new Browser.NewPageOptions().setViewportSize(1280, 900));
                p.navigate(server.baseUrl() + "/dashboard/#matrix");
                p.waitForFunction("() => window.accelbridgeDashboardReady === true");
                p.waitForCondition(() -> p.locator("#grid td").count() > 0);
                // the op suite starts folded to a row of counts; the default run's 96 cells are shown
                assertThat(p.locator("#grid tbody[data-group=ops] tr").count()).isEqualTo(1);
                assertThat(p.locator("#grid td.cell").count()).isEqualTo(96);
                assertThat(p.locator("#overview-box #overview").textContent()).contains("5481 cells: ");
                for (int width : List.of(1280, 1920)) {
                    p.setViewportSize(width, 900);
                    assertThat(LabelBoxes.overlaps(p, "#view-matrix")).as("at " + width + " px").isEmpty();
                    p.screenshot(new Page.ScreenshotOptions().setPath(shots.resolve("matrix-layout-" + width + ".png")));
                }
                p.locator("#grid tbody[data-group=ops] tr.gh th").click();
                assertThat(p.locator("#grid td.cell").count()).isEqualTo(96 + 5385);
                for (int width : List.of(1920, 1280)) {
                    p.setViewportSize(width, 900);
                    assertThat(LabelBoxes.overlaps(p, "#grid")).as("the op suite open at " + width + " px").isEmpty();
                }
                p.close();
                browser.close();
            }
        }
    }
}
