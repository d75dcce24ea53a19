package dev.accelbridge.reports.render;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.history.RegressionDetector;
import dev.accelbridge.reports.store.MatrixStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import javax.xml.parsers.DocumentBuilderFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

import static dev.accelbridge.reports.Fixtures.chromiumProv;
import static dev.accelbridge.reports.Fixtures.host;
import static dev.accelbridge.reports.Fixtures.notRun;
import static dev.accelbridge.reports.Fixtures.t;
import static dev.accelbridge.reports.Fixtures.wrong;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatCode;

/**
 * Text nobody here wrote, in every field a report shows: a model name, a reason and a host holding NUL, \x01,
 * ESC colour codes, markup and newlines. junit.xml was not well-formed (a CI system then drops the whole report) and
 * report.md passed raw HTML; now junit.xml parses with a strict parser, report.md keeps each table row on one line with
 * the markup escaped, report.html has no markup from the data, and the terminal sees no escape sequence.
 */
class HostileTextTest {
    static final String HOSTILE = "bad\u0000name\u0001<script>alert(1)</script>\u001B[31mred\u001B[0m|pipe\nnext line &amp;"
            + " [x](https:\\evil) ![i](http://host/p.png) www.evil.example `tick` *em*";

    @Test
    void everyFormatStaysWellFormedWhateverTheTextHolds(@TempDir Path dir) throws Exception {
        Path out = reported(dir, (s, h, run) -> {
            s.write(wrong(run, t(1), ModelFamily.OTHER, HOSTILE, BackendId.WASM, chromiumProv(h, false), new double[]{1, 2, 3}));
            s.write(notRun(run, t(2), ModelFamily.OTHER, HOSTILE, BackendId.WEBGPU, Status.FAILED, "run: " + HOSTILE,
                    chromiumProv(h, true)));
        });
        // a strict XML 1.0 parser takes junit.xml
        var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(out.resolve("junit.xml").toFile());
        assertThat(doc.getElementsByTagName("testcase").getLength()).isEqualTo(2);
        String xml = Files.readString(out.resolve("junit.xml"));
        assertThat(xml).doesNotContain("\u0000", "\u0001", "\u001B").contains("&lt;script&gt;");

        String md = Files.readString(out.resolve("report.md"));
        // markup escaped by backslashes, as CommonMark reads them (MarkdownInCommonMarkTest renders it)
        assertThat(md).doesNotContain("<script>", "\u0000", "\u0001", "\u001B", "&lt;").contains("\\<script\\>", "\\|pipe");
        // found when tried: a name became a live link or a remote image in any Markdown viewer
        assertThat(md).doesNotContain("[x](", "![i](", "http://", "www.evil", " `tick`", " *em*")
                .contains("[x]\\(https:\\\\evil)", "![i]\\(http\\://host/p.png)", "www\\.evil", "\\`tick\\`");
        for (String line : md.split("\n")) {
            if (line.startsWith("|")) {
                assertThat(line.trim()).as("a table row stays one line").endsWith("|");
            }
        }
        String html = Files.readString(out.resolve("report.html"));
        // escaped in the page's text, and unable to close the data's script element ("</" is written "<\/")
        assertThat(html).doesNotContain("<script>alert(1)</script>", "\u0000", "\u0001").contains("&lt;script&gt;alert(1)&lt;/script&gt;");

        assertThat(Text.terminal(HOSTILE)).doesNotContain("\u001B", "\u0000", "\n").contains("red");
        assertThatCode(() -> DocumentBuilderFactory.newInstance().newDocumentBuilder()
                .parse(new org.xml.sax.InputSource(new java.io.StringReader("<a b=\"" + Text.xml("\u0001\uD800x") + "\"/>"))))
                .doesNotThrowAnyException();
    }

    /**
     * Found when tried: a name holding {@code <!--<script>} (a model folder's, or an input name a page chose) left the
     * data element open (the HTML parser's escaped script state, in which {@code </script>} no longer ends it), so the
     * report's own script became text and no chart or view ran. No {@code <} is written into the element now.
     */
    @Test
    void aNameCannotHoldTheDataElementOpen(@TempDir Path dir) throws Exception {
        String name = "m<!--<script>x";
        Path out = reported(dir, (s, h, run) ->
                s.write(wrong(run, t(1), ModelFamily.OTHER, name, BackendId.WASM, chromiumProv(h, false), new double[]{1, 2, 3})));
        String html = Files.readString(out.resolve("report.html"));
        String open = "<script type=\"application/json\" id=\"matrix-data\">";
        int from = html.indexOf(open) + open.length();
        String data = html.substring(from, html.indexOf("</script>", from));
        assertThat(data).doesNotContain("<");
        assertThat(new com.fasterxml.jackson.databind.ObjectMapper().readTree(data).toString()).contains(name);
        // the page's own script comes after the data element and is still a script
        assertThat(html.substring(from + data.length())).containsPattern("</script>\\s*<script>");
    }

    /** The reports of one run whose rows {@code rows} writes into the store, for its host and run. */
    private static Path reported(Path dir, Rows rows) throws Exception {
        Path out = dir.resolve("out");
        try (MatrixStore s = MatrixStore.open(dir.resolve("m.duckdb"))) {
            HostInfo h = host("alpha");
            s.recordHost(h);
            String run = s.beginRun(h, Map.of("accelbridge", "0.1.0"), "{}");
            rows.write(s, h, run);
            s.finishRun(run);
            ReportWriter.write(s, Optional.of(run), out, RegressionDetector.defaults());
        }
        return out;
    }

    private interface Rows {
        void write(MatrixStore s, HostInfo h, String run) throws Exception;
    }
}
