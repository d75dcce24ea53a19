package dev.accelbridge.tools.cli;

import dev.accelbridge.browser.testing.RequiresBrowser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The browser path through the real CLI: headless Debian Chromium driven by Selenium, real onnxruntime-web,
 * outputs checked against the native CPU reference, the JSON contract, and the reports.
 */
@RequiresBrowser
class BrowserRunCliTest {
    @TempDir
    Path tmp;

    @Test
    void textOnWasmAndWebgpuThroughSeleniumMatchesTheNativeReference() throws Exception {
        org.junit.jupiter.api.Assumptions.assumeTrue(Files.isExecutable(Path.of("/usr/bin/chromedriver"))
                || Files.isExecutable(Path.of("/usr/lib/chromium/chromedriver")), "no chromedriver on this host");
        Path out = tmp.resolve("out");
        CliRunner.Result r = CliRunner.run("run", "--backends", "wasm,webgpu,webnn-gpu,cpu", "--suites", "text",
                "--browser", "chromium", "--engines", "jsep", "--driver", "selenium", "--warmups", "1", "--iterations", "3", "--min-duration", "0", "--warmup-duration", "0", "--json",
                "--db", tmp.resolve("m.duckdb").toString(), "--out", out.toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        JsonNode arr = new ObjectMapper().readTree(r.out());
        Map<String, JsonNode> byRequested = new HashMap<>();
        arr.forEach(n -> byRequested.put(n.get("requested").asText(), n));
        assertThat(byRequested).containsOnlyKeys("wasm", "webgpu", "webnn-gpu", "cpu");

        JsonNode wasm = byRequested.get("wasm");
        assertThat(wasm.get("status").asText()).isEqualTo("PASSED");
        assertThat(wasm.get("driver").asText()).isEqualTo("selenium");
        assertThat(wasm.get("browser").asText()).startsWith("chromium 1");
        assertThat(wasm.get("maxAbsErr").asDouble()).isLessThan(1e-3);
        assertThat(wasm.get("cosine").asDouble()).isGreaterThan(0.999);
        assertThat(wasm.get("parityAgainst").asText()).isEqualTo("native-cpu");
        assertThat(wasm.get("iterations").asInt()).isEqualTo(3);
        // The bridge launched this browser, so its process tree's memory is measured.
        assertThat(wasm.get("rssPeakBytes").asLong()).isPositive();

        JsonNode webgpu = byRequested.get("webgpu");
        assertThat(webgpu.get("status").asText()).isEqualTo("PASSED");
        assertThat(webgpu.get("softwareAdapter").asBoolean()).isTrue();
        assertThat(webgpu.get("adapter").asText()).contains("swiftshader").contains("software adapter");
        assertThat(webgpu.get("firstMs").asDouble()).isPositive();
        // the one JSON form: the case identity, what really executed, the grade rule, the diagnostics
        assertThat(webgpu.get("lane").asText()).isEqualTo("chromium");
        assertThat(webgpu.get("precision").asText()).isEqualTo("fp32");
        assertThat(webgpu.get("batchSize").asInt()).as("the default batch size").isEqualTo(1);
        // the lane with its versions: the browser's major and the page's onnxruntime-web
        assertThat(webgpu.get("caseKey").asText()).startsWith("text/").matches(".*/webgpu/chromium@\\d+\\+ort-web@1\\.\\d+\\.\\d+");
        assertThat(webgpu.get("browserMajor").asText()).matches("\\d+");
        assertThat(webgpu.get("ortWebVersion").asText()).isEqualTo(dev.accelbridge.browser.page.PageAssets.ortWebVersion());
        assertThat(webgpu.get("ortVersion").isNull()).isTrue();
        assertThat(webgpu.get("acceleration").asText()).isEqualTo("software adapter");
        assertThat(webgpu.get("grade").asText()).as("a software adapter is never graded like hardware").isIn("MEDIUM", "LOW");
        assertThat(webgpu.get("diagnostics").toString()).contains("software-adapter");
        // both sides used the same intra-op thread count, and say so
        JsonNode cpu = byRequested.get("cpu");
        assertThat(wasm.get("threads").asInt()).isPositive().isEqualTo(cpu.get("threads").asInt());
        assertThat(wasm.get("speedVsNativeCpu").asDouble()).isPositive();
        assertThat(cpu.get("grade").asText()).isEqualTo("HIGH");
        // recommend, from the store: the fastest backend that passed, with the runner-up
        CliRunner.Result rec = CliRunner.run("recommend", "--json", "--db", tmp.resolve("m.duckdb").toString());
        assertThat(rec.exitCode()).as(rec.err()).isEqualTo(Main.OK);
        // one answer per deployment target: natively, and in the browser
        JsonNode recs = new ObjectMapper().readTree(rec.out());
        JsonNode text = recs.get(0);
        assertThat(text.get("family").asText()).isEqualTo("text");
        assertThat(text.get("precision").asText()).isEqualTo("fp32");
        assertThat(text.get("target").asText()).isEqualTo("native");
        assertThat(text.get("best").get("backend").asText()).as(text.toString()).isEqualTo("cpu");
        JsonNode web = recs.get(1);
        assertThat(web.get("target").asText()).isEqualTo("chromium");
        assertThat(web.get("best").get("browser").asText()).as(web.toString()).isEqualTo("chromium");
        assertThat(web.get("best").get("backend").asText()).isIn("wasm", "webgpu");
        assertThat(web.get("best").get("speedupVsCpu").asDouble()).isPositive();

        // Debian's Chromium has no WebNN backend: the requested hop is rejected with the browser's own sentence
        // and the case runs on the next hop of webnn-gpu's chain.
        JsonNode webnn = byRequested.get("webnn-gpu");
        assertThat(webnn.get("status").asText()).isEqualTo("FELL_BACK");
        assertThat(webnn.get("actual").asText()).isEqualTo("wasm");
        assertThat(webnn.get("fallbackPath").get(0).get("reason").asText()).contains("WebNN is not supported on this platform.");
        assertThat(webnn.get("evidence").asText()).contains("webnn-gpu").contains("cost:");
        assertThat(webnn.get("grade").asText()).as("a fallback is never HIGH").isIn("MEDIUM", "LOW");
        assertThat(webnn.get("scoreNote").asText()).contains("fell back to wasm");
        // the lane's wasm case measured that work: the fallback is judged on it, not run again, and says whose figures it has
        assertThat(webnn.get("figuresOf").asText()).isEqualTo(wasm.get("caseKey").asText());
        assertThat(webnn.get("evidence").asText()).contains("figures: this lane's wasm case's");
        for (String f : List.of("p50Ms", "meanMs", "stddevMs", "firstMs", "maxAbsErr")) {
            assertThat(webnn.get(f).asDouble()).as(f).isEqualTo(wasm.get(f).asDouble());
        }

        assertThat(out.resolve("report.html")).exists();
        assertThat(Files.readString(out.resolve("junit.xml"))).contains("testcase");
        assertThat(Files.readString(out.resolve("report.md"))).contains("webnn-gpu");
    }
}
