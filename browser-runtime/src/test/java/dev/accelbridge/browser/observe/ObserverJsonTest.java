package dev.accelbridge.browser.observe;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.browser.page.NodeScript;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The observer's own JSON (observer-parts.js, run by Node): what the page's toJSON and JSON.stringify would make of a
 * report does not matter, and every string, however odd, reads back here as the same code units.
 */
class ObserverJsonTest {
    private static final Path PARTS = Path.of("src/main/resources/dev/accelbridge/browser/observe/observer-parts.js");

    @Test
    void theReportsJsonIgnoresThePagesToJsonAndKeepsEveryString() throws Exception {
        String js = "import { readFileSync } from 'node:fs';\n"
                + "(0, eval)(readFileSync(" + new ObjectMapper().writeValueAsString(PARTS.toAbsolutePath().toString()) + ", 'utf8'));\n"
                + "const P = globalThis[Symbol.for('accelbridge.observer.parts')];\n"
                + "Array.prototype.toJSON = function () { return 'an array'; };\n"
                + "String.prototype.toJSON = function () { return 'a string'; };\n"
                + "Array.prototype.map = function () { return []; };\n"
                + "JSON.stringify = () => '{}';\n"
                + "RegExp.prototype.exec = () => null;\n"
                + "const odd = 'q\"b\\\\n\\n\\t\\u0000\\u001f é \\ud83d\\ude00 lone \\ud800 end \\udfff';\n"
                + "console.log(P.json({ a: [1, 2.5, -0, NaN, Infinity, null, true, odd], b: { c: 'plain', u: undefined, f: () => 1 }, s: odd }));\n"
                + "console.log(P.reportJson({ document: 'd', sessions: [{ id: 1 }], droppedSessions: 2, modules: [], notes: [], started: [] }, 10));\n";
        String[] out = NodeScript.run("observer-json", js).strip().split("\n");
        JsonNode n = new ObjectMapper().readTree(out[0]);
        String odd = "q\"b\\n\n\t\u0000\u001f é \ud83d\ude00 lone \ud800 end \udfff";
        assertThat(n.get("s").asText()).isEqualTo(odd);
        assertThat(n.get("a").size()).isEqualTo(8);
        assertThat(n.get("a").get(3).isNull()).as("NaN, as JSON has it").isTrue();
        assertThat(n.get("a").get(7).asText()).isEqualTo(odd);
        assertThat(n.get("b").has("u")).isFalse();
        assertThat(n.get("b").has("f")).isFalse();
        JsonNode cut = new ObjectMapper().readTree(out[1]);
        assertThat(cut.get("sessions").size()).isZero();
        assertThat(cut.get("droppedSessions").asInt()).isEqualTo(3);
        assertThat(cut.get("notes").get(0).asText()).contains("past the bound of 10");
    }
}
