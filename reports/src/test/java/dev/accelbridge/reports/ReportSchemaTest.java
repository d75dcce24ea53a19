package dev.accelbridge.reports;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.core.testing.CommittedFile;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Set;
import java.util.TreeSet;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The committed schema is the one the report records make now (with {@code ACCELBRIDGE_WRITE_DOCS=1} the test writes it
 * instead), and every field the golden outputs write is one it names: a field put by hand beside a record would show here.
 */
class ReportSchemaTest {
    private static final Path FILE = Path.of("src", "main", "resources").resolve(ReportSchema.RESOURCE);
    private static final Path GOLDEN = Path.of("src", "test", "resources", "golden");
    private static final String HOW = "report-forms.schema.json is generated from the records: write it again with "
            + "ACCELBRIDGE_WRITE_DOCS=1 ./mvnw -q -pl reports test -Dtest=ReportSchemaTest";

    @Test
    void theCommittedSchemaIsTheRecordsOwn() throws Exception {
        CommittedFile.holds(FILE, ReportSchema.text(), HOW);
    }

    @Test
    void everyFieldTheOutputsWriteIsNamed() throws Exception {
        JsonNode schema = ReportSchema.generate();
        ObjectMapper json = new ObjectMapper();
        for (JsonNode e : json.readTree(GOLDEN.resolve("recommend.json").toFile())) {
            assertThat(fields(e)).isEqualTo(properties(schema, "recommendation"));
        }
        for (JsonNode e : json.readTree(GOLDEN.resolve("recommend-dtype.json").toFile())) {
            assertThat(fields(e)).isEqualTo(properties(schema, "dtypeRecommendation"));
        }
        assertThat(fields(json.readTree(GOLDEN.resolve("compare.json").toFile()))).isEqualTo(properties(schema, "comparison"));
        JsonNode export = json.readTree(GOLDEN.resolve("export.json").toFile());
        assertThat(fields(export)).isEqualTo(properties(schema, "export"));
        assertThat(properties(schema, "matrix")).containsAll(fields(json.readTree(GOLDEN.resolve("matrix.json").toFile())));
        JsonNode results = export.get("results");
        assertThat(results).isNotEmpty();
        for (JsonNode r : results) {
            assertThat(properties(schema, "result")).containsAll(fields(r));
        }
    }

    private static Set<String> fields(JsonNode o) {
        Set<String> out = new TreeSet<>();
        o.fieldNames().forEachRemaining(out::add);
        return out;
    }

    /** The properties of the form listed as {@code form}: its definition's. */
    private static Set<String> properties(JsonNode schema, String form) {
        String ref = schema.path("forms").path(form).path("$ref").asText();
        JsonNode def = schema.path("$defs").path(ref.substring(ref.lastIndexOf('/') + 1));
        Set<String> out = new TreeSet<>();
        def.path("properties").fieldNames().forEachRemaining(out::add);
        assertThat(out).as(form).isNotEmpty();
        return out;
    }
}
