package dev.accelbridge.reports.render;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.history.RegressionDetector;
import dev.accelbridge.reports.store.MatrixStore;
import org.commonmark.ext.gfm.tables.TableCell;
import org.commonmark.ext.gfm.tables.TablesExtension;
import org.commonmark.node.AbstractVisitor;
import org.commonmark.node.Code;
import org.commonmark.node.CustomNode;
import org.commonmark.node.Emphasis;
import org.commonmark.node.Heading;
import org.commonmark.node.HtmlBlock;
import org.commonmark.node.HtmlInline;
import org.commonmark.node.Image;
import org.commonmark.node.Link;
import org.commonmark.node.Node;
import org.commonmark.node.Paragraph;
import org.commonmark.node.SoftLineBreak;
import org.commonmark.node.StrongEmphasis;
import org.commonmark.parser.Parser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static dev.accelbridge.reports.Fixtures.chromiumProv;
import static dev.accelbridge.reports.Fixtures.fellBack;
import static dev.accelbridge.reports.Fixtures.host;
import static dev.accelbridge.reports.Fixtures.notRun;
import static dev.accelbridge.reports.Fixtures.samples;
import static dev.accelbridge.reports.Fixtures.t;
import static dev.accelbridge.reports.Fixtures.wrong;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * report.md read the way a CommonMark viewer reads it (commonmark-java with GitHub's tables): every bold label is bold,
 * and text nobody here wrote (quotes, markup, ampersands, underscores) reads back exactly as it was written, with no
 * HTML entity, emphasis, link or raw HTML made of it. Found when tried: a label's closing {@code **} came after a space,
 * which CommonMark does not close, so the label and its stars were shown as typed; and quotes came out as {@code &#39;}
 * in the Markdown a person reads.
 */
class MarkdownInCommonMarkTest {
    static final String NAME = "_m_ input_ids __x__ 'q' \"dq\" <b>&amp;</b> a*b";
    static final String REASON = "session.run threw Error: 'input_ids' got \"int32\" <expected int64> & __proto__ ~x~";

    @Test
    void labelsAreBoldAndTextReadsBackAsWritten(@TempDir Path dir) throws Exception {
        String md = report(dir);
        Node doc = Parser.builder().extensions(List.of(TablesExtension.create())).build().parse(md);
        List<String> strong = new ArrayList<>();
        List<String> blocks = new ArrayList<>();
        List<String> unwanted = new ArrayList<>();
        doc.accept(new AbstractVisitor() {
            @Override
            public void visit(StrongEmphasis n) {
                strong.add(text(n));
                visitChildren(n);
            }

            @Override
            public void visit(Paragraph n) {
                blocks.add(text(n));
                visitChildren(n);
            }

            @Override
            public void visit(Heading n) {
                blocks.add(text(n));
                visitChildren(n);
            }

            @Override
            public void visit(CustomNode n) {
                if (n instanceof TableCell) {
                    blocks.add(text(n));
                }
                visitChildren(n);
            }

            @Override
            public void visit(Emphasis n) {
                unwanted.add("emphasis: " + text(n));
                visitChildren(n);
            }

            @Override
            public void visit(HtmlInline n) {
                unwanted.add("html: " + n.getLiteral());
            }

            @Override
            public void visit(HtmlBlock n) {
                unwanted.add("html block: " + n.getLiteral());
            }

            @Override
            public void visit(Link n) {
                unwanted.add("link: " + n.getDestination());
            }

            @Override
            public void visit(Image n) {
                unwanted.add("image: " + n.getDestination());
            }
        });
        assertThat(unwanted).as("made of the data").isEmpty();
        assertThat(md).as("the Markdown a person reads").doesNotContain("&#39;", "&quot;", "&lt;", "&gt;");
        // every label written in bold is bold: none is left as stars in the text
        assertThat(blocks).noneMatch(b -> b.contains("**"));
        assertThat(strong).hasSizeGreaterThanOrEqualTo(md.split("\n- \\*\\*", -1).length - 1)
                .anyMatch(s -> s.contains(NAME))      // a fallback's model
                .anyMatch(s -> s.endsWith("cell:"));  // a group of findings
        assertThat(blocks).anyMatch(b -> b.contains(NAME)).anyMatch(b -> b.contains(REASON));
    }

    /** Text that starts a line (an item's, a summary's) starts no block of its own, and a number stays as written. */
    @Test
    void textAtALinesStartStaysAParagraph() {
        Parser parser = Parser.builder().build();
        for (String t : List.of("# not a heading", "1. not a list", "2) nor this", "- nor this", "+ nor this", "---", "===",
                "[a]: https://x.example", "> not a quote", "__init__ and *x* and `y`", "-0.5 and 2.50e-01")) {
            Node doc = parser.parse(Text.markdown(t));
            assertThat(doc.getFirstChild()).as(t).isInstanceOf(Paragraph.class);
            assertThat(doc.getFirstChild().getNext()).as(t).isNull();
            assertThat(text(doc)).as(t).isEqualTo(t);
        }
        assertThat(Text.markdown("-0.5 and 2.50e-01 input_ids")).isEqualTo("-0.5 and 2.50e-01 input_ids");
    }

    /** The text a node shows, its breaks as spaces. */
    private static String text(Node n) {
        StringBuilder b = new StringBuilder();
        n.accept(new AbstractVisitor() {
            @Override
            public void visit(org.commonmark.node.Text t) { // a name our Text holds in this package
                b.append(t.getLiteral());
            }

            @Override
            public void visit(Code c) {
                b.append(c.getLiteral());
            }

            @Override
            public void visit(SoftLineBreak s) {
                b.append(' ');
            }
        });
        return b.toString();
    }

    /** report.md of one run holding a fallback, a wrong output and a failure, each named or explained in others' words. */
    private static String report(Path dir) throws Exception {
        Path out = dir.resolve("out");
        try (MatrixStore s = MatrixStore.open(dir.resolve("m.duckdb"))) {
            HostInfo h = host("alpha");
            s.recordHost(h);
            String run = s.beginRun(h, Map.of("accelbridge", "0.1.0"), "{}");
            s.write(fellBack(run, t(1), h, ModelFamily.VISION, NAME, BackendId.WEBGPU, BackendId.WASM, chromiumProv(h, false),
                    samples(1.5, 0.05, 30, 2)));
            s.write(wrong(run, t(2), ModelFamily.TEXT, NAME, BackendId.WASM, chromiumProv(h, false), samples(4, 0.05, 30, 3)));
            s.write(notRun(run, t(3), ModelFamily.TEXT, NAME, BackendId.WEBGPU, Status.FAILED, REASON, chromiumProv(h, false)));
            s.finishRun(run);
            ReportWriter.write(s, Optional.of(run), out, RegressionDetector.defaults());
        }
        return Files.readString(out.resolve("report.md"));
    }
}
