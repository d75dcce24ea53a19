package dev.accelbridge.reports.render;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.LabelBoxes;
import dev.accelbridge.reports.LayoutFixture;
import dev.accelbridge.reports.history.RegressionDetector;
import dev.accelbridge.reports.store.MatrixStore;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import static dev.accelbridge.reports.Fixtures.host;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Opens report.html in the machine's real headless Chromium, offline (file://): the charts draw, and the page reads —
 * for the default matrix (96 cells) and the op suite (5,385), at 1280 and 1920 px no two rendered labels overlap, folded
 * and with every section open; folded, the default report is at most three screens tall at 1400 px. Screenshots of
 * each go to target/screenshots for a person to look at.
 */
@RequiresBrowser
class HtmlReportInChromiumTest {
    /** A screen at 1400 px wide, for the report's height. */
    static final int SCREEN_HEIGHT = 900;
    static final Path SHOTS = Path.of("target", "screenshots");

    @TempDir
    static Path dir;
    static Playwright pw;
    static Browser browser;

    @BeforeAll
    static void launch() throws Exception {
        pw = Playwright.create();
        browser = dev.accelbridge.browser.testing.TestChromium.launch(pw);
        Files.createDirectories(SHOTS);
    }

    @AfterAll
    static void close() {
        if (browser != null) {
            browser.close();
        }
        if (pw != null) {
            pw.close();
        }
    }

    /** A page at {@code width} x a screen that records console errors and any request leaving the file. */
    static Page open(Path html, int width, List<String> errors) {
        Page page = browser.newPage(new com.microsoft.playwright.Browser.NewPageOptions().setViewportSize(width, SCREEN_HEIGHT));
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
        page.navigate(html.toUri().toString());
        page.waitForFunction("() => window.accelbridgeCharts !== undefined");
        return page;
    }

    /** Opens every folded section (charts draw as they open). */
    static void unfoldAll(Page page) {
        page.evaluate("() => document.querySelectorAll('details').forEach(d => { d.open = true; d.dispatchEvent(new Event('toggle')); })");
        page.waitForTimeout(300);
    }

    @Test
    void theLabelReaderFindsPlantedOverlapsAndOnlyThose() {
        // the layout checks below pass only if the reader can see an overlap: planted ones, and their apart and hidden twins
        Page page = browser.newPage(new com.microsoft.playwright.Browser.NewPageOptions().setViewportSize(800, 600));
        page.setContent("""
                <div id="planted" style="position:relative;font:16px sans-serif">
                  <span style="position:absolute;left:10px;top:10px">first label</span>
                  <span style="position:absolute;left:30px;top:14px">second label</span>
                  <svg width="300" height="60" style="position:absolute;top:80px"><text x="10" y="20">svg one</text><text x="20" y="24">svg two</text></svg>
                  <table class="grid" style="position:absolute;top:160px;table-layout:fixed;width:60px"><tr><td style="width:60px;white-space:nowrap;overflow:hidden">a cell text far too long to fit</td></tr></table>
                </div>
                <div id="clean" style="position:relative;font:16px sans-serif;top:300px">
                  <span style="position:absolute;left:10px;top:10px">apart one</span>
                  <span style="position:absolute;left:300px;top:10px">apart two</span>
                  <details style="position:absolute;left:0;top:60px"><summary>closed</summary><span style="position:absolute;left:10px;top:-50px">hidden over apart one</span></details>
                </div>""");
        assertThat(LabelBoxes.overlaps(page, "#planted")).contains("\"first label\" overlaps \"second label\"",
                "\"svg: svg one\" overlaps \"svg: svg two\"", "runs past its cell: \"a cell text far too long to fit\"");
        assertThat(LabelBoxes.count(page, "#clean")).as("the reader saw the clean part").isGreaterThanOrEqualTo(3);
        assertThat(LabelBoxes.overlaps(page, "#clean")).isEmpty();
        page.close();
    }

    @Test
    void chartsDrawWithoutConsoleErrors() throws Exception {
        Path out = dir.resolve("out");
        try (MatrixStore s = MatrixStore.open(dir.resolve("m.duckdb"))) {
            ReportFixture.fill(s);
            ReportWriter.writeAll(s, Optional.empty(), out);
        }
        String html = Files.readString(out.resolve("report.html"));
        assertThat(html).doesNotContain("<script src=").doesNotContain("cdn").contains("echarts");
        List<String> errors = new ArrayList<>();
        Page page = open(out.resolve("report.html"), 1400, errors);
        // the matrix: one cell per case (9), each a mark and a figure, its notes on hover
        assertThat(page.locator("#grid td.cell").count()).isEqualTo(9);
        assertThat(page.locator("#grid td.cell.s-wrong_output").first().textContent()).startsWith("✗");
        assertThat(page.locator("#grid td.cell.sw").count()).as("the WebGPU cell on SwiftShader (the other's adapter is a GPU's)").isEqualTo(1);
        assertThat(page.locator("#grid td.cell.s-wrong_output").first().getAttribute("title")).contains("WRONG_OUTPUT");
        // a folded family shows its counts; folding a backend merges its browsers
        page.locator("#grid tr.gh th").first().click();
        assertThat(page.locator("#grid tbody").first().locator("tr").count()).isEqualTo(1);
        // the first screen: counts per browser and backend, the regression, the fallback with its reason
        assertThat(page.locator("#overview #glance").count()).isEqualTo(1);
        assertThat(page.locator("#overview").textContent()).contains("regression").contains("webnn-gpu → wasm")
                .contains("unavailable: No available adapters.");
        unfoldAll(page);
        for (String id : List.of("ratio", "history")) {
            Number shapes = (Number) page.evaluate("id => document.querySelectorAll('#' + id + ' svg path, #' + id + ' svg rect').length", id);
            assertThat(shapes.intValue()).as(id + " drawn shapes").isGreaterThanOrEqualTo(6);
        }
        // browser vs native ranks hardware cells only: the software-adapter WebGPU cell is drawn nowhere as a speed, and a cell that
        // fell back from webnn-gpu to wasm is not ranked (found when tried: it was drawn as "webnn-gpu [chromium 156] ×8.38")
        Object ratio = page.evaluate("() => { const o = echarts.getInstanceByDom(document.getElementById('ratio')).getOption();"
                + " return [o.legend ? o.legend.length : 0, o.series[0].markLine.data[0].xAxis, o.series[0].data.length, o.series[1].type]; }");
        assertThat(((List<?>) ratio).stream().map(String::valueOf).toList()).as("wasm and the GPU adapter's WebGPU")
                .containsExactly("0", "1", "2", "custom");
        assertThat(page.locator("#ratio-sw").count()).as("a software adapter's figures are drawn in no speed chart").isZero();
        assertThat(page.evaluate("() => echarts.getInstanceByDom(document.getElementById('ratio')).getOption().yAxis[0].data"
                + ".some(l => l.includes('webnn-gpu'))")).isEqualTo(false);
        // history lines are named in a list under the chart (names at the lines' ends were drawn over each other)
        assertThat(page.locator("#history + ol.chart-key li").count()).isGreaterThanOrEqualTo(6);
        assertThat(page.locator("#changes tr.regression").count()).isEqualTo(1);
        assertThat(page.locator("#cells tr").count()).isEqualTo(10);
        assertThat(page.locator(".sw").count()).isGreaterThan(0);
        assertThat(LabelBoxes.overlaps(page, "body")).isEmpty();
        page.close();
        assertThat(errors).isEmpty();
    }

    /** The matrix of {@code results} (the newest of every cell), its report written to {@code name}.html. */
    static Matrix report(String name, List<RunResult> results) throws Exception {
        try (MatrixStore s = MatrixStore.open(dir.resolve(name + ".duckdb"))) {
            Matrix m = MatrixBuilder.build(s, results, Optional.empty(), RegressionDetector.defaults());
            Files.writeString(dir.resolve(name + ".html"), HtmlRenderer.render(m));
            return m;
        }
    }

    @Test
    void theDefaultMatrixReadsOnThreeScreensWithNoLabelOverAnother() throws Exception {
        HostInfo h = host("ci-runner");
        Matrix m = report("default", LayoutFixture.defaultRun("r-default", h));
        Path html = dir.resolve("default.html");
        // the report groups the findings; matrix.json keeps every diagnostic on its cell
        int inJson = 0;
        for (var cell : JsonRenderer.render(m).get("cells")) {
            inJson += cell.get("diagnostics").size();
        }
        assertThat(inJson).isEqualTo(m.findings().size()).isGreaterThan(40);
        assertThat(Files.readString(html)).contains("Findings (" + m.findings().size() + " diagnostics in ");
        List<String> errors = new ArrayList<>();
        Page tall = open(html, 1400, errors);
        int height = ((Number) tall.evaluate("() => document.documentElement.scrollHeight")).intValue();
        tall.screenshot(new Page.ScreenshotOptions().setPath(SHOTS.resolve("report-default-1400.png")).setFullPage(true));
        assertThat(height).as("the default report folded, at 1400 px").isLessThanOrEqualTo(3 * SCREEN_HEIGHT);
        assertThat(tall.locator("#grid td.cell").count()).isEqualTo(96);
        tall.close();
        for (int width : List.of(1280, 1920)) {
            Page page = open(html, width, errors);
            assertThat(LabelBoxes.count(page, "body")).isGreaterThan(200);
            assertThat(LabelBoxes.overlaps(page, "body")).as("folded at " + width + " px").isEmpty();
            unfoldAll(page);
            page.screenshot(new Page.ScreenshotOptions().setPath(SHOTS.resolve("report-default-open-" + width + ".png")).setFullPage(true));
            assertThat(LabelBoxes.overlaps(page, "body")).as("every section open at " + width + " px").isEmpty();
            page.close();
        }
        assertThat(errors).isEmpty();
    }

    @Test
    void theOpSuiteReadsFoldedAndOpen() throws Exception {
        HostInfo h = host("ci-runner");
        report("ops", LayoutFixture.opSuite("r-ops", h));
        Path html = dir.resolve("ops.html");
        List<String> errors = new ArrayList<>();
        Page page = open(html, 1280, errors);
        // the op suite's 1,077 rows start folded to one row of counts per column
        assertThat(page.locator("#grid tbody[data-group=ops] tr").count()).isEqualTo(1);
        for (int width : List.of(1280, 1920)) {
            page.setViewportSize(width, SCREEN_HEIGHT);
            assertThat(LabelBoxes.overlaps(page, "#grid")).as("folded at " + width + " px").isEmpty();
            assertThat(LabelBoxes.overlaps(page, "#overview")).isEmpty();
        }
        page.locator("#grid tr.gh th").first().click();
        assertThat(page.locator("#grid td.cell").count()).isEqualTo(5385);
        for (int width : List.of(1920, 1280)) {
            page.setViewportSize(width, SCREEN_HEIGHT);
            assertThat(LabelBoxes.overlaps(page, "#grid")).as("open at " + width + " px").isEmpty();
        }
        page.screenshot(new Page.ScreenshotOptions().setPath(SHOTS.resolve("report-ops-1280.png")));
        page.close();
        assertThat(errors).isEmpty();
    }
}
