package dev.accelbridge.browser.page;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.bridge.protocol.MessageKind;
import dev.accelbridge.bridge.protocol.ProtocolSchema;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The page and the bridge speak one protocol: the page's scripts are checked against the schema the bridge's records make
 * ({@code page-protocol.schema.json}). Every field of a bridge message the page reads is one the bridge sends, every field
 * the bridge sends is read by the page, and every key a page's answer literal sends is one the bridge's record declares.
 * A rename on one side only fails here, naming the field (shown on a changed copy of the page below).
 */
class PageProtocolMirrorTest {
    private static final Path PAGE = Path.of("src/main/web/page");
    /** Read by the frame codec and the inbox rather than a job: the envelope and a binary frame's table. */
    private static final Set<String> FRAME = Set.of("v", "type", "job", "tensors", "chunked");
    /** A JS array's or string's own members, not a field of the message. */
    private static final Set<String> MEMBERS = Set.of("length", "map", "forEach", "filter", "slice", "some", "every", "reduce", "includes");

    private static JsonNode schema() throws IOException {
        try (InputStream in = ProtocolSchema.class.getClassLoader().getResourceAsStream(ProtocolSchema.RESOURCE)) {
            assertThat(in).as("the bridge's schema on the classpath").isNotNull();
            return new ObjectMapper().readTree(in);
        }
    }

    @Test
    void thePageReadsWhatTheBridgeSendsAndSendsWhatTheBridgeReads() throws IOException {
        assertThat(disagreements(PAGE, schema())).isEmpty();
    }

    @Test
    void aFieldRenamedOnOneSideOnlyIsNamed(@TempDir Path tmp) throws IOException {
        Path copy = tmp.resolve("page");
        try (Stream<Path> files = Files.walk(PAGE)) {
            for (Path f : files.toList()) {
                Path to = copy.resolve(PAGE.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(to);
                } else {
                    Files.copy(f, to);
                }
            }
        }
        Path run = copy.resolve("jobs/run.mjs");
        Files.writeString(run, Files.readString(run).replace("msg.firstOnly", "msg.onlyFirst"));
        Path load = copy.resolve("jobs/load.mjs");
        Files.writeString(load, Files.readString(load).replace("sessionMs, fetchMs,", "sessionMillis: sessionMs, fetchMs,"));
        assertThat(disagreements(copy, schema())).containsExactlyInAnyOrder(
                "the page reads 'onlyFirst' (jobs/run.mjs), which no bridge message has",
                "the bridge sends 'firstOnly' (run), which the page never reads",
                "the page's loaded sends 'sessionMillis', which the bridge's record does not declare");
    }

    @Test
    void thePagesFallbackBundleIsThePinnedEnginesTheBridgeDecides() throws IOException {
        String js = Files.readString(PAGE.resolve("bundle.mjs"));
        assertThat(js).contains("export const DEFAULT_ENTRY = '" + dev.accelbridge.core.OrtWebEngine.PINNED.bundle() + "';");
        assertThat(OrtWebBuild.pinned().pageQuery()).as("a launched page is told its bundle, never left to the fallback")
                .isEqualTo("ortEntry=" + dev.accelbridge.core.OrtWebEngine.PINNED.bundle());
    }

    /** Every way the page's scripts and the schema disagree, in words. */
    static List<String> disagreements(Path page, JsonNode schema) {
        PageReads r = PageReads.of(page);
        List<String> out = new ArrayList<>();
        JsonNode toPage = schema.path("toPage");
        Set<String> read = new TreeSet<>();
        r.reads.forEach((file, paths) -> {
            for (String p : paths) {
                String[] parts = p.split("\\.");
                read.add(parts[0]);
                if (!FRAME.contains(parts[0]) && !declared(schema, toPage, parts)) {
                    out.add("the page reads '" + p + "' (" + file + "), which no bridge message has");
                }
            }
        });
        toPage.fields().forEachRemaining(k -> own(k.getValue()).path("properties").fieldNames().forEachRemaining(f -> {
            if (!read.contains(f)) {
                out.add("the bridge sends '" + f + "' (" + k.getKey() + "), which the page never reads");
            }
        }));
        r.sends.forEach((js, keys) -> {
            String kind = MessageKind.valueOf(js).id();
            JsonNode answer = schema.path("fromPage").path(kind);
            if (answer.isMissingNode()) {
                return; // a kind the page sends only as a bridge message's mirror (an error of its own is one)
            }
            for (String k : keys) {
                if (!FRAME.contains(k) && !own(answer).path("properties").has(k)) {
                    out.add("the page's " + kind + " sends '" + k + "', which the bridge's record does not declare");
                }
            }
        });
        return out;
    }

    /** Whether some bridge message has this path: its first field, and below it a field of what that field holds. */
    private static boolean declared(JsonNode schema, JsonNode toPage, String[] parts) {
        var kinds = toPage.elements();
        while (kinds.hasNext()) {
            JsonNode field = own(kinds.next()).path("properties").path(parts[0]);
            if (field.isMissingNode()) {
                continue;
            }
            if (parts.length == 1 || MEMBERS.contains(parts[1])) {
                return true;
            }
            JsonNode held = field.has("$ref") ? schema.path("$defs").path(field.path("$ref").asText().substring("#/$defs/".length()))
                    : field;
            if (held.path("properties").has(parts[1]) || held.has("additionalProperties")) {
                return true;
            }
        }
        return false;
    }

    /** A message kind's own part of its schema (beside the envelope). */
    private static JsonNode own(JsonNode kind) {
        return kind.path("allOf").get(1);
    }
}
