package dev.accelbridge.tools.cli;

import dev.accelbridge.browser.testing.RequiresBrowser;
import com.fasterxml.jackson.databind.JsonNode;
import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import dev.accelbridge.tools.dashboard.Dashboard;
import dev.accelbridge.bridge.BridgeOptions;
import dev.accelbridge.bridge.BridgeServer;
import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.reports.store.ResultJson;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.MethodOrderer;
import org.junit.jupiter.api.Order;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestMethodOrder;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The dashboard for real: a store filled by two real runs (native CPU and onnxruntime-web wasm in headless Chromium),
 * the real server on port 0, and Playwright driving the machine's headless Chromium through the pages. A run started
 * from the form is a real {@code accelbridge run} process whose cases stream into the page.
 */
@TestMethodOrder(MethodOrderer.OrderAnnotation.class)
@RequiresBrowser
class DashboardTest {
    @TempDir
    static Path tmp;
    static Path db;
    static String run1;
    static String run2;
    static MatrixStore store;
    static Dashboard dashboard;
    static BridgeServer server;
    static Playwright pw;
    static Browser browser;
    static final Path SHOTS = Path.of("target", "dashboard-screenshots");
    static final HttpClient HTTP = HttpClient.newHttpClient();

    @BeforeAll
    static void fill() throws Exception {
        db = tmp.resolve("m.duckdb");
        CliRunner.Result a = CliRunner.run("run", "--suites", "text,vision", "--backends", "wasm,cpu", "--browser", "chromium",
                "-n", "3", "--min-duration", "0", "--warmup-duration", "0", "--warmups", "1", "--no-bisect", "--no-report", "--db", db.toString(), "--out", tmp.resolve("o1").toString());
        assertThat(a.exitCode()).as(a.err()).isZero();
        CliRunner.Result b = CliRunner.run("run", "--suites", "text,vision", "--backends", "wasm,cpu", "--browser", "chromium",
                "-n", "3", "--min-duration", "0", "--warmup-duration", "0", "--warmups", "1", "--no-bisect", "--no-report", "--json", "--db", db.toString(), "--out", tmp.resolve("o2").toString());
        assertThat(b.exitCode()).as(b.err()).isZero();
        store = MatrixStore.openForRun(db);
        List<String> ids = store.runs().stream().map(r -> r.runId()).toList();
        run1 = ids.get(0);
        run2 = ids.get(1);
        runJson = b.out();
        dashboard = new Dashboard(store, tmp.resolve("dash-out"), Duration.ofMillis(300));
        server = BridgeServer.start(BridgeOptions.builder().port(0).build(), List.of(dashboard.routes()));
        pw = Playwright.create();
        browser = dev.accelbridge.browser.testing.TestChromium.launch(pw);
        Files.createDirectories(SHOTS);
    }

    static String runJson;

    @AfterAll
    static void close() {
        if (browser != null) {
            browser.close();
        }
        if (pw != null) {
            pw.close();
        }
        if (server != null) {
            server.close();
        }
        if (dashboard != null) {
            dashboard.close();
        }
        if (store != null) {
            store.close();
        }
    }

    /** A page on the dashboard that records console errors and every request that would leave the server's origin. */
    record Watched(Page page, List<String> problems) {
    }

    static Watched open(String hash) {
        Page page = browser.newPage();
        List<String> problems = Collections.synchronizedList(new ArrayList<>());
        page.onConsoleMessage(m -> {
            if (m.type().equals("error") && !m.text().startsWith("Failed to load resource")) {
                problems.add("console: " + m.text());
            }
        });
        page.onPageError(e -> problems.add("page error: " + e));
        page.onResponse(r -> {
            if (r.status() >= 400) {
                problems.add("HTTP " + r.status() + " " + r.url());
            }
        });
        String origin = server.baseUrl().toString();
        page.onRequest(r -> {
            if (!r.url().startsWith(origin)) {
                problems.add("request leaving the machine's server: " + r.url());
            }
        });
        page.navigate(server.baseUrl() + "/dashboard/" + hash);
        page.waitForFunction("() => window.accelbridgeDashboardReady === true");
        return new Watched(page, problems);
    }

    @Test
    @Order(1)
    void apiListsRunsNewestFirstAndCasesInTheOneJsonForm() throws Exception {
        JsonNode runs = get("/api/runs", null, 200);
        assertThat(runs.isArray()).isTrue();
        assertThat(runs.get(0).get("runId").asText()).isEqualTo(run2);
        assertThat(runs.get(1).get("runId").asText()).isEqualTo(run1);
        assertThat(runs.get(0).get("total").asInt()).isEqualTo(4);
        assertThat(runs.get(0).get("lanes").get("chromium").asInt()).isEqualTo(2);
        assertThat(runs.get(0).get("origin").asText()).isEqualTo("cli"); // started by 'accelbridge run', not a test or the API
        assertThat(runs.get(0).get("label").isNull()).isTrue();

        JsonNode cases = get("/api/cases?run=" + run2, null, 200);
        // the same one JSON form as `run --json`, case for case
        assertThat(cases).isEqualTo(ResultJson.MAPPER.readTree(runJson));
        JsonNode wasm = get("/api/cases?run=" + run2 + "&backend=wasm&family=text", null, 200);
        assertThat(wasm).hasSize(1);
        assertThat(wasm.get(0).get("requested").asText()).isEqualTo("wasm");
        assertThat(wasm.get(0).get("suite").asText()).isEqualTo("text");
        JsonNode bad = get("/api/cases?run=" + run2 + "&status=fine", null, 400);
        assertThat(bad.get("error").asText()).contains("status=fine").contains("PASSED");
        assertThat(get("/api/cases?run=no-such-run", null, 404).get("error").asText()).contains("no-such-run");
    }

    @Test
    @Order(2)
    void filtersChangeTheVisibleCells() throws Exception {
        Watched w = open("#matrix");
        Page p = w.page();
        Locator rows = p.locator("#cells tbody tr[data-key]");
        p.waitForCondition(() -> rows.count() == 4);
        p.screenshot(new Page.ScreenshotOptions().setPath(SHOTS.resolve("matrix.png")).setFullPage(true));
        // the answer first, a matrix of marks and figures, and no label drawn over another at either width
        assertThat(p.locator("#overview-box #glance").count()).isEqualTo(1);
        assertThat(p.locator("#grid td.cell").count()).isEqualTo(4);
        for (int width : List.of(1280, 1920)) {
            p.setViewportSize(width, 900);
            p.waitForTimeout(200);
            assertThat(dev.accelbridge.reports.LabelBoxes.overlaps(p, "#view-matrix")).as("at " + width + " px").isEmpty();
        }
        p.selectOption("select[name=suite]", "vision");
        p.waitForCondition(() -> rows.count() == 2);
        assertThat(rows.allTextContents()).allSatisfy(t -> assertThat(t).startsWith("vision/convnet-small"));
        p.waitForCondition(() -> p.locator("#grid td.cell").count() == 2);
        // the first screen follows the filters: two vision cells counted
        assertThat(p.locator("#overview-box #overview").textContent()).contains("2 cells: ");
        p.selectOption("select[name=requested]", "wasm");
        p.waitForCondition(() -> rows.count() == 1);
        // the ratio chart shows the browser cell's p50 over native CPU's, not bars of milliseconds
        Number ratio = (Number) p.evaluate("() => echarts.getInstanceByDom(document.getElementById('ratio')).getOption().series[0].data[0].value");
        assertThat(ratio.doubleValue()).isPositive();
        assertThat(p.locator("#cells tbody tr[data-key] td").nth(7).textContent()).containsPattern("× (slower|faster) than native CPU");
        p.selectOption("#f-run", run1);
        p.waitForCondition(() -> p.locator("#matrix-summary").textContent().contains(run1));
        assertThat(rows.count()).isEqualTo(1);
        assertThat(w.problems()).isEmpty();
        p.close();
    }

    @Test
    @Order(3)
    void drillDownShowsTimingsHopsAndHistory() throws Exception {
        Watched w = open("#matrix");
        Page p = w.page();
        p.waitForCondition(() -> p.locator("#cells tbody tr[data-key]").count() == 4);
        p.locator("#cells tbody tr[data-key]:has-text('wasm') a").first().click();
        p.waitForCondition(() -> p.locator("#case-timings tr").count() > 3);
        assertThat(p.locator("#case-title").textContent()).contains("wasm");
        assertThat(p.locator("#case-timings").textContent()).contains("warm p50").containsPattern("\\d+\\.\\d+ / ");
        assertThat(p.locator("#case-hops li.taken").textContent()).startsWith("wasm (taken)");
        assertThat(p.locator("#case-provenance").textContent()).contains("onnxruntime-web");
        // the page's memory: the wasm heap measured, with its source; the GPU not used on wasm: a dash, never 0
        assertThat(p.locator("#case-memory").textContent()).containsPattern("wasm heap \\(grown by the case\\)\\d+\\.\\d MiB")
                .contains("GPU peak / left after release–", "WebAssembly.Memory");
        Number samples = (Number) p.evaluate("() => echarts.getInstanceByDom(document.getElementById('case-samples')).getOption().series[0].data.length");
        assertThat(samples.intValue()).isEqualTo(3);
        assertThat(p.locator("#case-history-table tbody tr").count()).isEqualTo(2);
        p.screenshot(new Page.ScreenshotOptions().setPath(SHOTS.resolve("case.png")).setFullPage(true));
        assertThat(w.problems()).isEmpty();
        p.close();
    }

    @Test
    @Order(4)
    void comparisonOfTwoRunsShowsTheRatio() throws Exception {
        Watched w = open("#compare");
        Page p = w.page();
        p.selectOption("#c-by", "run");
        p.selectOption("#c-a", run1);
        p.selectOption("#c-b", run2);
        p.click("#compare-form button[type=submit]");
        Locator ratios = p.locator("#compare-table td.ratio");
        p.waitForCondition(() -> ratios.count() == 4);
        assertThat(ratios.allTextContents()).allSatisfy(t -> assertThat(t).matches("×\\d+\\.\\d\\d"));
        JsonNode c = get("/api/compare?by=run&a=" + run1 + "&b=" + run2, null, 200);
        JsonNode row = c.get("rows").get(0);
        assertThat(row.get("ratio").asDouble()).isCloseTo(row.get("b").get("p50").asDouble() / row.get("a").get("p50").asDouble(),
                org.assertj.core.data.Offset.offset(1e-9));
        p.screenshot(new Page.ScreenshotOptions().setPath(SHOTS.resolve("compare.png")).setFullPage(true));
        p.navigate(server.baseUrl() + "/dashboard/#recommendations");
        p.waitForCondition(() -> p.locator("#recommendations tbody tr").count() >= 1
                && p.locator("#recommendations tbody").textContent().contains("cpu"));
        p.screenshot(new Page.ScreenshotOptions().setPath(SHOTS.resolve("recommendations.png")).setFullPage(true));
        assertThat(w.problems()).isEmpty();
        p.close();
    }

    @Test
    @Order(5)
    void aRunStartedFromTheFormStreamsLiveAndASecondIsRefused() throws Exception {
        Watched w = open("#run");
        Page p = w.page();
        p.waitForCondition(() -> p.locator("#rf-suites input").count() == 6); // text, vision, audio, multimodal, text-generation, ops
        for (Locator box : p.locator("#run-form input[type=checkbox]").all()) {
            box.uncheck();
        }
        p.check("#rf-suites input[value=text]");
        p.check("#rf-suites input[value=vision]");
        p.check("#rf-backends input[value=cpu]");
        p.check("#rf-backends input[value=wasm]");
        p.check("#rf-browsers input[value=chromium]");
        p.check("#rf-precisions input[value=fp32]");
        p.fill("#run-form input[name=iterations]", "2");
        p.fill("#run-form input[name=warmups]", "1");
        // any other option of 'run', by its group's field
        p.click("#run-form details summary");
        p.fill("#run-form textarea[name=groups]", "{\"limits\": {\"threads\": 1}, \"drillDown\": {\"bisect\": false}}");
        p.click("#run-submit");
        p.waitForCondition(() -> p.url().endsWith("#live"));
        // while it runs, a second request is answered 409 with the reason
        Object second = p.evaluate("() => fetch('/api/runs', {method: 'POST', headers: {'Content-Type': 'application/json'},"
                + " body: JSON.stringify({suites: ['text'], backends: ['cpu']})}).then(r => r.text().then(t => r.status + ' ' + t))");
        assertThat(second.toString()).startsWith("409 ").contains("in progress");
        // its cases stream in as they are stored, with the progress bar and per-lane status
        p.waitForCondition(() -> p.locator("#live-cases li").count() >= 1 && p.locator(".run-card").count() >= 1,
                new Page.WaitForConditionOptions().setTimeout(120_000));
        p.waitForCondition(() -> p.locator(".run-card table.lanes tr[data-lane=native]").count() == 1);
        p.screenshot(new Page.ScreenshotOptions().setPath(SHOTS.resolve("live.png")).setFullPage(true));
        p.waitForCondition(() -> p.locator(".run-card .run-status").first().textContent().equals("finished"),
                new Page.WaitForConditionOptions().setTimeout(240_000));
        assertThat(p.locator("#live-cases li").count()).isEqualTo(4);
        assertThat(p.locator(".run-card .run-count").first().textContent()).isEqualTo("4 of 4");
        assertThat(p.locator(".run-card progress").first().getAttribute("value")).isEqualTo("4");
        assertThat(p.locator(".run-card tr[data-lane=chromium]").textContent()).contains("done").contains("2 / 2");
        assertThat(store.runs()).hasSize(3);
        assertThat(store.runs().stream().flatMap(r -> dev.accelbridge.run.PlanJson.stored(r.planJson()).stream())
                .filter(plan -> plan.limits().threads().equals(java.util.Optional.of(1)) && !plan.drillDown().bisect())).hasSize(1);
        assertThat(w.problems()).containsExactly("HTTP 409 " + server.baseUrl() + "/api/runs"); // the refusal asked for above
        p.close();
    }

    @Test
    @Order(6)
    void offLoopbackEveryApiRequestNeedsTheToken() throws Exception {
        String token = "dashboard-test-token-0123456789";
        try (BridgeServer open = BridgeServer.start(BridgeOptions.builder().host("0.0.0.0").port(0).token(token).build(),
                List.of(dashboard.routes()))) {
            String base = "http://127.0.0.1:" + open.port();
            for (String path : List.of("/api/runs", "/api/cases?run=" + run1, "/api/matrix", "/api/live", "/api/launch")) {
                HttpResponse<String> r = HTTP.send(HttpRequest.newBuilder(URI.create(base + path)).build(), HttpResponse.BodyHandlers.ofString());
                assertThat(r.statusCode()).as(path).isEqualTo(401);
            }
            HttpResponse<String> post = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/api/runs"))
                    .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"suites\":[\"text\"]}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(post.statusCode()).isEqualTo(401);
            HttpResponse<String> ok = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/api/runs"))
                    .header("Authorization", "Bearer " + token).build(), HttpResponse.BodyHandlers.ofString());
            assertThat(ok.statusCode()).isEqualTo(200);
            assertThat(ResultJson.MAPPER.readTree(ok.body())).hasSize(3);
            // the page opened with the token passes it on: the matrix loads
            Page p = browser.newPage();
            p.navigate(base + "/dashboard/?token=" + token + "#matrix");
            p.waitForFunction("() => window.accelbridgeDashboardReady === true");
            p.waitForCondition(() -> p.locator("#cells tbody tr[data-key]").count() > 0);
            assertThat(p.locator("#error").isHidden()).isTrue();
            p.close();
        }
    }

    @Test
    @Order(7)
    void aCrossOriginOrNonJsonRunRequestIsRefused() throws Exception {
        String base = server.baseUrl().toString();
        HttpResponse<String> cross = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/api/runs"))
                .header("Content-Type", "application/json").header("Origin", "http://evil.example")
                .POST(HttpRequest.BodyPublishers.ofString("{\"suites\":[\"text\"]}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(cross.statusCode()).isEqualTo(403);
        HttpResponse<String> form = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/api/runs"))
                .header("Content-Type", "text/plain").POST(HttpRequest.BodyPublishers.ofString("{}")).build(), HttpResponse.BodyHandlers.ofString());
        assertThat(form.statusCode()).isEqualTo(415);
        HttpResponse<String> badFlag = HTTP.send(HttpRequest.newBuilder(URI.create(base + "/api/runs"))
                .header("Content-Type", "application/json").POST(HttpRequest.BodyPublishers.ofString("{\"backends\":[\"quantum\"]}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(badFlag.statusCode()).isEqualTo(400);
        assertThat(badFlag.body()).contains("quantum");
        assertThat(store.runs()).hasSize(3);
        assertThat(store.runs().stream().flatMap(r -> dev.accelbridge.run.PlanJson.stored(r.planJson()).stream())
                .filter(plan -> plan.limits().threads().equals(java.util.Optional.of(1)) && !plan.drillDown().bisect())).hasSize(1);
    }

    static JsonNode get(String path, String token, int status) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(server.baseUrl() + path));
        if (token != null) {
            b.header("Authorization", "Bearer " + token);
        }
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(status);
        return ResultJson.MAPPER.readTree(r.body());
    }
}
