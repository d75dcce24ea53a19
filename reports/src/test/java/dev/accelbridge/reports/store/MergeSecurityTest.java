package dev.accelbridge.reports.store;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.reports.StoreException;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.function.Consumer;

import static dev.accelbridge.reports.Fixtures.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The merge surface: an export file is written by whoever sent it, so {@code merge} holds every
 * record to the schema's types and ranges and refuses, naming the file and the record, what the lenient reader
 * once wrapped, rounded or let through; a refused file leaves the store exactly as it was. Each attack is one a
 * careful tester made: before the fix every one of them was imported.
 */
@Tag("slow") // merges large hostile exports, 9 s
class MergeSecurityTest {
    @TempDir
    Path dir;

    private ObjectNode valid;
    private Path target;
    private String before;

    @BeforeEach
    void setUp() {
        HostInfo h = host("alpha");
        Path src = dir.resolve("src.duckdb");
        try (MatrixStore s = MatrixStore.open(src)) {
            String r = s.beginRun(h, Map.of("accelbridge", "0.1.0"), "{}");
            s.write(passed(r, t(0), h, ModelFamily.TEXT, "bert-tiny", BackendId.CPU, nativeProv(h), samples(2, 0.1, 10, 0)));
            s.write(passed(r, t(1), h, ModelFamily.TEXT, "bert-tiny", BackendId.WASM, chromiumProv(h, false), samples(5, 0.1, 10, 1)));
            s.finishRun(r);
            valid = StoreExport.export(s);
        }
        // the target already holds another host's run: a refused file must leave it as it is
        HostInfo b = host("beta");
        target = dir.resolve("target.duckdb");
        try (MatrixStore s = MatrixStore.open(target)) {
            String r = s.beginRun(b, Map.of("accelbridge", "0.1.0"), "{}");
            s.write(passed(r, t(5), b, ModelFamily.TEXT, "bert-tiny", BackendId.CPU, nativeProv(b), samples(2, 0.1, 10, 5)));
            s.finishRun(r);
            before = contents(s);
        }
    }

    /** The store's whole content as an export, less the moment of exporting. */
    private static String contents(MatrixStore s) {
        ObjectNode e = StoreExport.export(s);
        e.remove("exportedAt");
        return e.toString();
    }

    private Path file(String name, String text) throws Exception {
        Path f = dir.resolve(name);
        Files.writeString(f, text);
        return f;
    }

    private Path withFirstResult(String name, Consumer<ObjectNode> edit) throws Exception {
        ObjectNode doc = valid.deepCopy();
        edit.accept((ObjectNode) doc.get("results").get(0));
        return file(name, doc.toString());
    }

    private void assertRefused(Path f, String... messageParts) {
        try (MatrixStore s = MatrixStore.open(target)) {
            assertThatThrownBy(() -> StoreExport.merge(s, f)).isInstanceOf(StoreException.class)
                    .hasMessageContaining(f.toString()).hasMessageContaining("nothing of it was imported")
                    .satisfies(e -> {
                        for (String part : messageParts) {
                            assertThat(e.getMessage()).contains(part);
                        }
                    });
            assertThat(contents(s)).as("the store after a refused merge").isEqualTo(before);
        }
    }

    @Test
    void aResultWhoseOutcomeDisagreesWithItsFieldsIsRefusedNeverGuessed() throws Exception {
        // the first result ran (a backend, timings): said to have run nowhere, its fields disagree with its kind
        assertRefused(withFirstResult("disagrees.json", r -> r.put("outcome", "NOT_RUN")), "NOT_RUN names a backend");
        assertRefused(withFirstResult("stopped.json", r -> r.put("outcome", "STOPPED")), "STOPPED has timings");
        assertRefused(withFirstResult("unknown.json", r -> r.put("outcome", "SOMETIMES")), "outcome");
        assertRefused(withFirstResult("none.json", r -> r.remove("outcome")), "has no outcome");
    }

    @Test
    void theUnmodifiedExportIsAcceptedSoTheRulesBelowRefuseOnlyWhatIsWrong() throws Exception {
        Path f = file("ok.json", valid.toString());
        try (MatrixStore s = MatrixStore.open(target)) {
            assertThat(StoreExport.merge(s, f).results()).isEqualTo(2);
        }
    }

    /** Found when tried: batch 1e23 became -159383553, "one" became 0, 1.5 became 1, attempts 1e400 2147483647. */
    @ParameterizedTest(name = "{0} = {1}")
    @CsvSource(delimiter = '|', value = {
            "batchSize|1e23|batchSize is 1E+23, not a whole number",
            "batchSize|\"one\"|batchSize is the string 'one', not a whole number",
            "batchSize|1.5|batchSize is 1.5, not a whole number",
            "batchSize|1099511627776|batchSize is 1099511627776, outside 1..4096",
            "batchSize|0|batchSize is 0, outside 1..4096",
            "attempts|1e400|attempts is 1E+400, not a whole number",
            "attempts|99999999999999999999999|attempts is 99999999999999999999999, outside 1..11",
            "samplesMs|\"x\"|samplesMs is the string 'x', not an array",
            "samplesMs|[1, -2]|samplesMs[1] is -2, outside 0.0..∞",
            "loadMs|-5|loadMs is -5, outside 0.0..∞",
            "p50Ms|\"fast\"|p50Ms is the string 'fast', not a number",
            "within|\"yes\"|within is the string 'yes', not true or false",
            "status|\"GREAT\"|status 'GREAT' is not one of",
            "provenance|{\"threads\": -3}|provenance.threads is -3, outside 1..65536",
            "fallbackPath|[{\"taken\": true}]|fallbackPath[0].backend is missing",
            "memory|{\"rssPeak\": \"big\"}|memory.rssPeak is the string 'big', not a whole number",
    })
    void aFieldOfTheWrongTypeOrOutOfRangeIsRefusedNotWrapped(String field, String json, String expected) throws Exception {
        // the value goes into the file as written, not through a parser that would round it first
        ObjectNode doc = valid.deepCopy();
        ((ObjectNode) doc.get("results").get(0)).put(field, "@@attack@@");
        Path f = file(field + ".json", doc.toString().replace("\"@@attack@@\"", json));
        assertRefused(f, "results[0] (run ", expected);
    }

    /** Found when tried: with "within" twice, the last won (PASSED with within: false). */
    @Test
    void aDuplicateKeyIsRefused() throws Exception {
        String text = valid.toString().replaceFirst("\"within\":true", "\"within\":true,\"within\":false");
        assertThat(text).contains("\"within\":false");
        assertRefused(file("dup.json", text), "Duplicate field 'within'");
    }

    @Test
    void bytesAfterTheDocumentAreRefused() throws Exception {
        assertRefused(file("trailing.json", valid.toString() + "\n{\"more\": 1}"), "not valid JSON at line ");
        assertRefused(file("garbage.json", valid.toString() + " garbage"), "not valid JSON at line ");
    }

    /** Found when tried: the same case twice in one run was imported twice and exported twice. */
    @Test
    void theSameCaseTwiceInOneRunIsRefused() throws Exception {
        ObjectNode doc = valid.deepCopy();
        ArrayNode results = (ArrayNode) doc.get("results");
        results.add(results.get(0).deepCopy());
        assertRefused(file("twice.json", doc.toString()), "results[2] (run ", ") repeats case ");
    }

    /** Found when tried: a 10 MB string field made an 85 MB report.html. */
    @Test
    void aTextFieldBeyondTheStatedLengthIsRefused() throws Exception {
        String huge = "x".repeat(10 << 20);
        assertRefused(withFirstResult("reason.json", r -> r.put("reason", huge)),
                "reason is 10485760 characters long, more than the 65536 allowed");
        // a field the schema does not name is held to the same bound
        assertRefused(withFirstResult("extra.json", r -> r.putObject("profile").put("note", huge)),
                "profile.note is 10485760 characters long");
        ObjectNode doc = valid.deepCopy();
        ((ObjectNode) doc.get("hosts").get(0)).put("hostname", huge);
        assertRefused(file("host.json", doc.toString()), "hosts[0] hostname is 10485760 characters long");
    }

    @Test
    void aRunOrProbeOfTheWrongShapeIsRefused() throws Exception {
        ObjectNode doc = valid.deepCopy();
        ((ObjectNode) doc.get("runs").get(0)).put("startedAt", 12);
        assertRefused(file("run.json", doc.toString()), "runs[0] (run ", "startedAt is the number 12, not an ISO-8601 instant");
        ObjectNode d2 = valid.deepCopy();
        ((ObjectNode) d2.get("runs").get(0)).putArray("runtimeVersions");
        assertRefused(file("rv.json", d2.toString()), "runtimeVersions is an array, not an object");
    }

    /** Two files at once: the second's fault refuses both, so a merge is never half done. */
    @Test
    void aRefusedFileAmongSeveralImportsNoneOfThem() throws Exception {
        Path good = file("good.json", valid.toString());
        Path bad = withFirstResult("bad.json", r -> r.put("batchSize", -1));
        try (MatrixStore s = MatrixStore.open(target)) {
            assertThatThrownBy(() -> StoreExport.merge(s, good, bad)).isInstanceOf(StoreException.class)
                    .hasMessageContaining(bad.toString());
            assertThat(contents(s)).isEqualTo(before);
        }
    }
}
