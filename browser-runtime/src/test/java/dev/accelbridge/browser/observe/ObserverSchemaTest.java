package dev.accelbridge.browser.observe;

import com.fasterxml.jackson.databind.JsonNode;
import dev.accelbridge.core.testing.CommittedFile;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The committed observer-report schema is the one the records make now (with {@code ACCELBRIDGE_WRITE_DOCS=1} the test
 * writes it instead), and it says what the reader holds a report to: every record closed to other keys, its primitives
 * required, the reader's own {@code realm} not the page's.
 */
class ObserverSchemaTest {
    private static final Path FILE = Path.of("src", "main", "resources").resolve(ObserverSchema.RESOURCE);
    private static final String HOW = "observer-report.schema.json is generated from the records: write it again with "
            + "ACCELBRIDGE_WRITE_DOCS=1 ./mvnw -q -pl browser-runtime test -Dtest=ObserverSchemaTest";

    @Test
    void theCommittedSchemaIsTheRecordsOwn() throws Exception {
        CommittedFile.holds(FILE, ObserverSchema.text(), HOW);
    }

    @Test
    void itSaysWhatTheReaderHoldsAReportTo() {
        JsonNode schema = ObserverSchema.generate();
        JsonNode report = schema.get("report");
        assertThat(report.get("properties").has("realm")).isFalse();
        assertThat(report.get("additionalProperties").asBoolean(true)).isFalse();
        assertThat(report.get("required")).extracting(JsonNode::asText).containsExactly("droppedSessions");
        JsonNode session = schema.get("$defs").get("Observed.Session");
        List<String> required = new ArrayList<>();
        session.get("required").forEach(n -> required.add(n.asText()));
        assertThat(required).containsExactly("id", "byteLength", "created", "released", "runCount", "modelKept");
        schema.get("$defs").forEach(d -> assertThat(d.get("additionalProperties").asBoolean(true)).isFalse());
    }
}
