package dev.accelbridge.reports.store;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.reports.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.Statement;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The lane's versions as columns of the store (migration 9) and fields of the export (step 8): a row and a record written
 * before them take the versions their provenance recorded, so their cells go on with the same versions' new results.
 */
class LaneVersionsStoreTest {
    @TempDir
    Path dir;

    @Test
    void aStoreOfSchemaEightTakesEachRowsVersionsFromItsProvenance() throws Exception {
        Path f = dir.resolve("v8.duckdb");
        try (Connection c = OlderStore.at(f, 8, "old"); Statement st = c.createStatement()) {
            String insert = "INSERT INTO results (run_id, suite, model, model_sha256, input_set, requested, actual, status, lane, "
                    + "browser, browser_version, provenance, precision, batch_size, fallback_path, warnings) VALUES ('old', 'vision', 'convnet', "
                    + "'sha', 'img', ?, ?, 'PASSED', ?, ?, ?, ?, 'fp32', 1, '[]', '[]')";
            try (PreparedStatement ps = c.prepareStatement(insert)) {
                row(ps, "wasm", "chromium", "chromium", "156.0.8078.73",
                        "{\"browser\":\"chromium\",\"browserVersion\":\"156.0.8078.73\",\"runtimeVersions\":{\"onnxruntime-web\":\"1.30.0\"}}");
                row(ps, "wasm", "firefox", "firefox", "153.7.0esr",
                        "{\"browser\":\"firefox\",\"browserVersion\":\"153.7.0esr\",\"runtimeVersions\":{\"onnxruntime-web\":\"1.30.0\"}}");
                row(ps, "cpu", "native", null, null, "{\"runtimeVersions\":{\"onnxruntime\":\"1.29.0\",\"djl\":\"0.38.0\"}}");
                row(ps, "webgpu", "chromium", "chromium", null, null); // nothing recorded: unknown, not made up
            }
        }
        try (MatrixStore s = MatrixStore.open(f)) {
            assertThat(s.schemaVersion()).isEqualTo(Migrations.CURRENT);
            assertThat(s.results("old")).allSatisfy(r -> assertThat(r.id().scenario()).isEqualTo(dev.accelbridge.core.ScenarioId.SINGLE_PASS));
            Map<String, LaneId> lanes = new java.util.HashMap<>();
            s.results("old").forEach(r -> lanes.put(r.requested().id() + "/" + r.lane().id(), r.lane()));
            // every browser record from before engines were an axis ran on JSEP, the only bundle the page imported then
            assertThat(lanes.get("wasm/chromium")).isEqualTo(Fixtures.browserLane(dev.accelbridge.core.BrowserKind.CHROMIUM, "156", "1.30.0")
                    .with("ortWebEngine", "jsep"));
            assertThat(lanes.get("wasm/firefox").key()).isEqualTo("firefox@153+ort-web@1.30.0");
            assertThat(lanes.get("cpu/native")).isEqualTo(Fixtures.nativeLane("1.29.0"));
            assertThat(lanes.get("webgpu/chromium")).isEqualTo(LaneId.of(dev.accelbridge.core.BrowserKind.CHROMIUM).with("ortWebEngine", "jsep"));
            assertThat(lanes.get("cpu/native").version("ortWebEngine")).isNull();
        }
    }

    private static void row(PreparedStatement ps, String requested, String lane, String browser, String browserVersion, String prov)
            throws Exception {
        ps.setString(1, requested);
        ps.setString(2, requested);
        ps.setString(3, lane);
        ps.setString(4, browser);
        ps.setString(5, browserVersion);
        ps.setString(6, prov);
        ps.executeUpdate();
    }

    @Test
    void resultsAtTwoVersionsAreTwoCasesOfOneRunAndAnOlderExportTakesItsVersionsFromProvenance() throws Exception {
        HostInfo h = Fixtures.host("alpha");
        try (MatrixStore s = MatrixStore.open(dir.resolve("m.duckdb"))) {
            String run = s.beginRun(h, Map.of("accelbridge", "test"), "{}");
            s.write(Fixtures.passed(run, Fixtures.t(0), h, ModelFamily.VISION, "convnet", BackendId.WASM,
                    Fixtures.chromiumProv(h, "1.18.0"), Fixtures.samples(1, 0.05, 12, 1)));
            s.write(Fixtures.passed(run, Fixtures.t(1), h, ModelFamily.VISION, "convnet", BackendId.WASM,
                    Fixtures.chromiumProv(h, "1.30.0"), Fixtures.samples(1, 0.05, 12, 2)));
            assertThat(s.completedCases(run)).hasSize(2).extracting(id -> id.lane().version("ortWebVersion")).containsExactlyInAnyOrder("1.18.0", "1.30.0");
        }
        // an export of schema 8: its records name no version; the upgrade takes them from each record's provenance
        ObjectNode doc = ResultJson.MAPPER.createObjectNode().put("format", StoreExport.FORMAT).put("schemaVersion", 8);
        ObjectNode r = doc.putArray("results").addObject().put("lane", "chromium");
        r.putObject("provenance").put("browserVersion", "156.0.8078.73").putObject("runtimeVersions").put("onnxruntime-web", "1.18.0");
        ObjectNode n = doc.withArray("results").addObject().put("lane", "native");
        n.putObject("provenance").putObject("runtimeVersions").put("onnxruntime", "1.29.0");
        ObjectNode up = ExportUpgrades.upgrade(doc, dir.resolve("x.json"));
        assertThat(up.get("schemaVersion").asInt()).isEqualTo(Migrations.CURRENT);
        assertThat(List.of(up.at("/results/0/browserMajor").asText(), up.at("/results/0/ortWebVersion").asText(),
                up.at("/results/1/ortVersion").asText())).containsExactly("156", "1.18.0", "1.29.0");
        assertThat(up.at("/results/0/ortVersion").isMissingNode()).isTrue();
    }
}
