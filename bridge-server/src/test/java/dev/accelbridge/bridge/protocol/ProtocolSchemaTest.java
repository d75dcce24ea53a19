package dev.accelbridge.bridge.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.core.testing.CommittedFile;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.Arrays;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The committed schema is the one the records make now (with {@code ACCELBRIDGE_WRITE_DOCS=1} the test writes it
 * instead), and it names every message kind of each direction once.
 */
class ProtocolSchemaTest {
    private static final Path FILE = Path.of("src", "main", "resources").resolve(ProtocolSchema.RESOURCE);
    private static final String HOW = "page-protocol.schema.json is generated from the records: write it again with "
            + "ACCELBRIDGE_WRITE_DOCS=1 ./mvnw -q -pl bridge-server test -Dtest=ProtocolSchemaTest";

    @Test
    void theCommittedSchemaIsTheRecordsOwn() throws Exception {
        CommittedFile.holds(FILE, ProtocolSchema.text(), HOW);
    }

    @Test
    void everyKindHasItsMessageInTheDirectionItTravels() {
        JsonNode s = ProtocolSchema.generate();
        Set<String> both = new TreeSet<>();
        s.path("toPage").fieldNames().forEachRemaining(both::add);
        Set<String> from = new TreeSet<>();
        s.path("fromPage").fieldNames().forEachRemaining(from::add);
        assertThat(both).containsExactlyInAnyOrder("welcome", "ping", "renew", "error", "probe", "load", "run", "generate", "profile",
                "release", "chunk");
        assertThat(from).containsExactlyInAnyOrder("hello", "loaded", "result", "result-chunk", "progress", "profiled", "released",
                "pong", "probe", "error");
        both.addAll(from);
        assertThat(both).as("every kind travels").isEqualTo(Arrays.stream(MessageKind.values()).map(MessageKind::id)
                .collect(Collectors.toCollection(TreeSet::new)));
        JsonNode run = s.path("toPage").path("run").path("allOf").get(1);
        assertThat(run.path("required")).extracting(JsonNode::asText).as("a count the bridge always sends").contains("warmups", "iterations");
        assertThat(s.path("$defs").path("LoadJob.Ep").path("additionalProperties").path("type").asText())
                .as("a provider's own options sit beside its name").isEqualTo("string");
        assertThat(new ObjectMapper().valueToTree(s).path("$defs").has("ReleasedAnswer.GpuWindow")).isTrue();
    }
}
