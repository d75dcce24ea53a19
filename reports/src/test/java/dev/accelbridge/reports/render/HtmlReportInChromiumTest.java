package dev.accelbridge.reports.render;

import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.browser.launch.BrowserDiscovery;
import dev.accelbridge.core.BrowserKind;
import com.microsoft.playwright.Browser;
import com.microsoft.playwright.BrowserType;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import dev.accelbridge.reports.store.MatrixStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/** Opens report.html in the machine's real headless Chromium, offline (file://), and checks the charts drew. */
class HtmlReportInChromiumTest {
    @TempDir
    Path dir;

    @RequiresBrowser
    @Test
    void chartsDrawWithoutConsoleErrors() throws Exception {
        Path exe = BrowserDiscovery.find(BrowserKind.CHROMIUM).orElseThrow().executable();
        Path out = dir.resolve("out");
        try (MatrixStore s = MatrixStore.open(dir.resolve("m.duckdb"))) {
            ReportFixture.fill(s);
            ReportWriter.writeAll(s, Optional.empty(), out);
        }
        String html = Files.readString(out.resolve("report.html"));
        assertThat(html).doesNotContain("<script src=").doesNotContain("cdn").contains("echarts");

        List<String> errors = new ArrayList<>();
        try (Playwright pw = Playwright.create()) {
            Browser b = pw.chromium().launch(new BrowserType.LaunchOptions().setExecutablePath(exe).setHeadless(true)
                    .setArgs(List.of("--no-sandbox", "--disable-background-networking", "--disable-component-update",
                            "--disable-sync", "--no-first-run")));
            Page page = b.newPage();
            page.onConsoleMessage(m -> {
                if (m.type().equals("error")) {
                    errors.add(m.text());
                }
            });
            page.onPageError(errors::add);
            page.onRequest(r -> {
                if (!r.url().startsWith("file:") && !r.url().startsWith("data:")) {
                    errors.add("network request from an offline report: " + r.url());
                }
            });
            page.navigate(out.resolve("report.html").toUri().toString());
            page.waitForFunction("() => window.accelbridgeCharts !== undefined");
            for (String id : List.of("heatmap", "ratio", "history")) {
                Object inst = page.evaluate("id => !!echarts.getInstanceByDom(document.getElementById(id))", id);
                assertThat(inst).as(id + " instance").isEqualTo(true);
                Number shapes = (Number) page.evaluate(
                        "id => document.querySelectorAll('#' + id + ' svg path, #' + id + ' svg rect').length", id);
                assertThat(shapes.intValue()).as(id + " drawn shapes").isGreaterThanOrEqualTo(10);
            }
            // the heatmap has one rectangle-ish data item per cell (9); its colour scale stands at the right, clear of the
            // column labels under the grid
            assertThat(page.evaluate("() => echarts.getInstanceByDom(document.getElementById('heatmap')).getOption().visualMap[0].orient"))
                    .isEqualTo("vertical");
            // browser vs native is the ratio of p50s with the 1x line drawn (no legend to page through); the fixture's four
            // executed browser cells include one that fell back from webnn-gpu to wasm: its figure is wasm's, so it is
            // not ranked (found when tried: it was drawn as "webnn-gpu [chromium 156] ×8.38")
            Object ratio = page.evaluate("() => { const o = echarts.getInstanceByDom(document.getElementById('ratio')).getOption();"
                    + " return [o.legend ? o.legend.length : 0, o.series[0].markLine.data[0].xAxis, o.series[0].data.length]; }");
            assertThat(((List<?>) ratio).stream().map(x -> ((Number) x).intValue()).toList()).containsExactly(0, 1, 3);
            assertThat(page.evaluate("() => echarts.getInstanceByDom(document.getElementById('ratio')).getOption().yAxis[0].data"
                    + ".some(l => l.includes('webnn-gpu'))")).isEqualTo(false);
            // history lines are named where they end
            assertThat(page.evaluate("() => echarts.getInstanceByDom(document.getElementById('history')).getOption().series"
                    + ".every(s => s.endLabel && s.endLabel.show)")).isEqualTo(true);
            Number heatItems = (Number) page.evaluate(
                    "() => echarts.getInstanceByDom(document.getElementById('heatmap')).getOption().series[0].data.length");
            assertThat(heatItems.intValue()).isEqualTo(9);
            Number histSeries = (Number) page.evaluate(
                    "() => echarts.getInstanceByDom(document.getElementById('history')).getOption().series.length");
            assertThat(histSeries.intValue()).isGreaterThanOrEqualTo(6);
            assertThat(page.locator("#changes tr.regression").count()).isEqualTo(1);
            assertThat(page.locator("#cells tr").count()).isEqualTo(10);
            assertThat(page.locator(".sw").count()).isGreaterThan(0);
            b.close();
        }
        assertThat(errors).isEmpty();
    }
}
