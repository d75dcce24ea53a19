package dev.accelbridge.bridge.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.browser.page.PageAssets;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.suites.PublishedModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIf;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * onnxruntime-web's engines through the command line in real Chromium: one run on JSEP and on the native WebGPU EP, each
 * a lane of its own, each case naming the engine asked and the module its page loaded.
 */
@RequiresBrowser(BrowserKind.CHROMIUM)
class EnginesCliTest {
    @TempDir
    static Path tmp;

    @Test
    void aRunOnTwoEnginesStoresEachEnginesCasesInItsOwnLaneWithTheModuleThatRan() throws Exception {
        String db = tmp.resolve("e.duckdb").toString();
        CliRunner.Result r = CliRunner.run("run", "--db", db, "--out", tmp.resolve("out").toString(), "--suites", "vision",
                "--backends", "webgpu", "--browser", "chromium", "--engines", "jsep,webgpu-ep", "--warmups", "0", "-n", "1", "--profile", "--json");
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        Map<String, JsonNode> byEngine = new HashMap<>();
        for (JsonNode row : new ObjectMapper().readTree(r.out())) {
            byEngine.put(row.path("ortWebEngine").asText(), row);
            assertThat(row.path("status").asText()).as(row.toString()).isEqualTo("PASSED");
        }
        assertThat(byEngine).containsOnlyKeys("jsep", "webgpu-ep");
        assertThat(byEngine.get("jsep").path("caseKey").asText()).endsWith("/webgpu/chromium@" + major(byEngine.get("jsep")) + "+ort-web@" + PageAssets.ortWebVersion());
        assertThat(byEngine.get("webgpu-ep").path("caseKey").asText()).endsWith("+ort-web@" + PageAssets.ortWebVersion() + "+engine@webgpu-ep");
        assertThat(byEngine.get("jsep").toString()).contains("ort-wasm-simd-threaded.jsep.wasm sha256:");
        assertThat(byEngine.get("webgpu-ep").toString()).contains("ort-wasm-simd-threaded.asyncify.wasm sha256:");
        // each engine's provider by the name its own profiler uses; the native EP's profile says what it cannot give
        // (found when tried: its device, destroyed on purpose when the profiled session's turn came, read as lost)
        JsonNode jsep = byEngine.get("jsep");
        JsonNode ep = byEngine.get("webgpu-ep");
        assertThat(jsep.path("placement").path("ranOn").asText()).isEqualTo("JsExecutionProvider");
        assertThat(jsep.path("profile").path("source").asText()).contains("WebGPU timestamp queries");
        assertThat(ep.path("placement").path("ranOn").asText()).isEqualTo("WebGpuExecutionProvider");
        assertThat(ep.path("profile").path("requestedProvider").asText()).isEqualTo("WebGpuExecutionProvider");
        assertThat(ep.path("profile").path("nodesOffProvider")).isEmpty();
        assertThat(ep.path("profile").path("source").asText()).doesNotContain("timestamp");
        assertThat(ep.path("profile").path("note").asText()).contains("no kernel times");
        try (MatrixStore s = MatrixStore.openReadOnly(Path.of(db))) {
            assertThat(s.allResults()).extracting(x -> x.id().lane().version("ortWebEngine")).containsExactlyInAnyOrder("jsep", "webgpu-ep");
        }
        CliRunner.Result c = CliRunner.run("compare", "--db", db, "--by", "engine", "jsep", "webgpu-ep");
        assertThat(c.exitCode()).as(c.err()).isEqualTo(Main.OK);
        assertThat(c.out()).contains("1 cases on both sides");

        // the same store as one from before engines were an axis: opened, it gains the column, every browser record on JSEP
        try (Connection conn = DriverManager.getConnection("jdbc:duckdb:" + db); Statement st = conn.createStatement()) {
            List<String> indexes = new ArrayList<>(); // DuckDB drops a column only from a table without indexes
            try (var rs = st.executeQuery("SELECT index_name, sql FROM duckdb_indexes() WHERE table_name = 'results'")) {
                while (rs.next()) {
                    conn.createStatement().execute("DROP INDEX " + rs.getString(1));
                    indexes.add(rs.getString(2));
                }
            }
            st.execute("ALTER TABLE results DROP COLUMN ort_web_engine");
            for (String sql : indexes) {
                st.execute(sql);
            }
        }
        try (MatrixStore s = MatrixStore.open(Path.of(db))) {
            assertThat(s.allResults()).extracting(x -> x.id().lane().version("ortWebEngine")).containsExactly("jsep", "jsep");
        }
    }

    static boolean published() {
        return PublishedModels.installed().isPresent();
    }

    /**
     * A verdict that differs between the engines, on a published model: the legacy Silero VAD (npm @ricky0123/vad-web
     * 0.0.31, pinned by sha256) is wrong on JSEP here, its If branch's reflecting Slices failing a kernel, and right on the
     * native WebGPU EP (measured 2026-11-25: max abs err 0.90 against 4.5e-7).
     */
    @Test
    @EnabledIf(value = "published", disabledReason = "the published models are not installed (test-suites/published)")
    void thePublishedLegacyVadIsWrongOnJsepAndRightOnTheNativeEp() throws Exception {
        Path vad = PublishedModels.folder(PublishedModels.VAD_LEGACY, tmp.resolve("published"));
        CliRunner.Result r = CliRunner.run("run", "--db", tmp.resolve("vad.duckdb").toString(), "--out", tmp.resolve("vad").toString(),
                "--model", vad.toString(), "--family", "audio", "--backends", "webgpu", "--browser", "chromium", "--engines", "jsep,webgpu-ep",
                "--warmups", "0", "-n", "1", "--no-bisect", "--json");
        assertThat(r.exitCode()).as(r.err()).isIn(Main.OK, Main.POLICY_FAILED);
        Map<String, String> status = new HashMap<>();
        new ObjectMapper().readTree(r.out()).forEach(n -> status.put(n.path("ortWebEngine").asText(), n.path("status").asText()));
        assertThat(status).containsEntry("jsep", "WRONG_OUTPUT").containsEntry("webgpu-ep", "PASSED");
    }

    @Test
    void anEngineThatIsNotOneIsABadFlag() {
        CliRunner.Result r = CliRunner.run("run", "--suites", "vision", "--engines", "webgpu-native");
        assertThat(r.exitCode()).isEqualTo(2);
        assertThat(r.err()).contains("webgpu-native").contains("jsep, webgpu-ep, webgpu-ep-jspi");
    }

    private static String major(JsonNode row) {
        return row.path("browserMajor").asText();
    }
}
