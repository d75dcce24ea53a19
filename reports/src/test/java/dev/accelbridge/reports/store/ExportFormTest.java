package dev.accelbridge.reports.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.reports.Fixtures;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The export's parts the golden files leave empty, as records written whole: a run's probes and the models' ops, written
 * as when they were put by hand, and a run's runtime versions in key order (put by hand, they came in the order of an
 * unordered map, which can differ from one JVM to the next).
 */
class ExportFormTest {
    @TempDir
    Path dir;

    @Test
    void probesModelsAndRuntimeVersionsAreWrittenWholeAndInOrder() {
        HostInfo h = Fixtures.host("alpha");
        JsonNode doc;
        String run;
        try (MatrixStore s = MatrixStore.open(dir.resolve("e.duckdb"))) {
            run = s.beginRun(h, Map.of("accelbridge", "0.1.0", "onnxruntime-web", "1.30.0", "onnxruntime", "1.29.0", "chromium", "156"), "{}");
            s.recordProbe(run, Availability.unavailable(BackendId.WEBGPU, "No available adapters.", "chromium"));
            s.recordProbe(run, Availability.available(BackendId.WASM, "simd, threads", "chromium"));
            s.recordModels(List.of(new ModelEntry("ab".repeat(32), "relu", 17, List.of("Relu"))));
            s.finishRun(run);
            doc = StoreExport.export(s);
        }
        assertThat(doc.get("probes").toString()).isEqualTo("[{\"runId\":\"" + run + "\",\"backend\":\"webgpu\",\"where\":\"chromium\","
                + "\"available\":false,\"evidence\":\"No available adapters.\"},{\"runId\":\"" + run + "\",\"backend\":\"wasm\","
                + "\"where\":\"chromium\",\"available\":true,\"evidence\":\"simd, threads\"}]");
        assertThat(doc.get("models").toString()).isEqualTo("[{\"sha256\":\"" + "ab".repeat(32) + "\",\"ops\":[\"Relu\"]}]");
        List<String> keys = new java.util.ArrayList<>();
        doc.get("runs").get(0).get("runtimeVersions").fieldNames().forEachRemaining(keys::add);
        assertThat(keys).containsExactly("accelbridge", "chromium", "onnxruntime", "onnxruntime-web");
        assertThat(doc.get("hosts").get(0).get("detect").get("hostname").asText()).isEqualTo("alpha");
    }
}
