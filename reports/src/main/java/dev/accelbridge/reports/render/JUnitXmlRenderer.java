package dev.accelbridge.reports.render;

import dev.accelbridge.core.FallbackHop;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.ReportsException;

import javax.xml.stream.XMLOutputFactory;
import javax.xml.stream.XMLStreamException;
import javax.xml.stream.XMLStreamWriter;
import java.io.StringWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code junit.xml} in the Ant/Jenkins JUnit format, so CI systems show the matrix natively: one
 * {@code <testsuite>} per suite and host, one {@code <testcase>} per case (classname {@code suite.model},
 * name {@code backend [browser]}). FAILED and WRONG_OUTPUT are {@code <failure>} with the reason; UNAVAILABLE and
 * UNSUPPORTED are {@code <skipped message="reason"/>}; a case that passed on a re-run ({@code --retries}) carries a
 * {@code <flakyFailure>} per failed attempt, as Surefire writes reruns; PASSED and FELL_BACK pass (a fallback's path is in
 * {@code system-out}). Times are the case's measured load + first + timed iterations, in seconds. Written with
 * StAX, so every reason is escaped correctly.
 */
public final class JUnitXmlRenderer {
    private JUnitXmlRenderer() {
    }

    /** The document: one {@code <testsuite>} per suite and host, in the order the matrix's cells first name them. */
    public static String render(Matrix m) {
        Map<String, List<Cell>> suites = new LinkedHashMap<>();
        for (Cell c : m.cells()) {
            suites.computeIfAbsent("accelbridge." + c.result().suite().id() + "@" + c.host(), k -> new ArrayList<>()).add(c);
        }
        StringWriter out = new StringWriter();
        try {
            XMLStreamWriter w = XMLOutputFactory.newFactory().createXMLStreamWriter(out);
            w.writeStartDocument("UTF-8", "1.0");
            text(w, "\n");
            w.writeStartElement("testsuites");
            attr(w, "name", "accelbridge matrix (" + m.scope() + ")");
            attr(w, "tests", Integer.toString(m.cells().size()));
            attr(w, "failures", Long.toString(m.cells().stream().filter(c -> failed(c.result().status())).count()));
            attr(w, "errors", "0");
            attr(w, "time", secs(m.cells().stream().mapToDouble(JUnitXmlRenderer::seconds).sum()));
            int id = 0;
            for (Map.Entry<String, List<Cell>> e : suites.entrySet()) {
                writeSuite(w, m, e.getKey(), e.getValue(), id++);
            }
            text(w, "\n");
            w.writeEndElement();
            text(w, "\n");
            w.writeEndDocument();
            w.close();
        } catch (XMLStreamException e) {
            throw new ReportsException("Writing junit.xml failed: " + e.getMessage(), "report this as a bug", e);
        }
        return out.toString();
    }

    /**
     * One {@code <testsuite>}: its counts and time, its timestamp (its first case's start, else the matrix's generation,
     * without fractional seconds) and its cases.
     */
    private static void writeSuite(XMLStreamWriter w, Matrix m, String name, List<Cell> cs, int id) throws XMLStreamException {
        text(w, "\n  ");
        w.writeStartElement("testsuite");
        attr(w, "name", name);
        attr(w, "tests", Integer.toString(cs.size()));
        attr(w, "failures", Long.toString(cs.stream().filter(c -> failed(c.result().status())).count()));
        attr(w, "errors", "0");
        attr(w, "skipped", Long.toString(cs.stream().filter(c -> skipped(c.result().status())).count()));
        attr(w, "time", secs(cs.stream().mapToDouble(JUnitXmlRenderer::seconds).sum()));
        RunResult first = cs.get(0).result();
        attr(w, "timestamp", first.startedAt() == null ? m.generatedAt().toString().replaceAll("(\\.\\d+)?Z$", "")
                : first.startedAt().toString().replaceAll("(\\.\\d+)?Z$", ""));
        attr(w, "hostname", cs.get(0).host());
        attr(w, "id", Integer.toString(id));
        for (Cell c : cs) {
            writeCase(w, c);
        }
        text(w, "\n  ");
        w.writeEndElement();
    }

    /** One {@code <testcase>}: its failure or skip, its earlier failed attempts, and its details as system-out. */
    private static void writeCase(XMLStreamWriter w, Cell c) throws XMLStreamException {
        RunResult r = c.result();
        text(w, "\n    ");
        w.writeStartElement("testcase");
        attr(w, "name", r.requested().id() + " [" + c.key().lane().key() + "]");
        attr(w, "classname", r.suite().id() + "." + r.model());
        attr(w, "time", secs(seconds(c)));
        if (failed(r.status())) {
            w.writeStartElement("failure");
            // a bisected wrong output names its first diverging node first: what a CI reader needs to act on
            String diverging = DrillDowns.firstDivergence(r);
            attr(w, "message", r.status() + ": " + (diverging == null ? "" : diverging + "; ") + nz(r.reason()));
            attr(w, "type", r.status().name());
            text(w, details(c));
            w.writeEndElement();
        } else if (skipped(r.status())) {
            w.writeEmptyElement("skipped");
            attr(w, "message", r.status() + ": " + nz(r.reason()));
        }
        if (r.flaky()) {
            // Surefire's rerun form: a testcase that passed on a re-run carries its failed attempts
            for (String earlier : r.attempts().earlier()) {
                w.writeEmptyElement("flakyFailure");
                attr(w, "message", earlier);
                attr(w, "type", "FAILED");
            }
        }
        w.writeStartElement("system-out");
        text(w, details(c));
        w.writeEndElement();
        w.writeEndElement();
    }

    /** Every attribute goes through here: XML forbids some characters outright, whatever the escaping (Text.xml). */
    private static void attr(XMLStreamWriter w, String name, String value) throws XMLStreamException {
        w.writeAttribute(name, Text.xml(value));
    }

    /** Every text node goes through here (Text.xml). */
    private static void text(XMLStreamWriter w, String value) throws XMLStreamException {
        w.writeCharacters(Text.xml(value));
    }

    private static boolean failed(Status s) {
        return s == Status.FAILED || s == Status.WRONG_OUTPUT;
    }

    private static boolean skipped(Status s) {
        return s == Status.UNAVAILABLE || s == Status.UNSUPPORTED;
    }

    private static double seconds(Cell c) {
        var t = c.result().timings().orElse(null);
        if (t == null) {
            return 0;
        }
        double ms = fin(t.loadMs()) + fin(t.firstMs());
        for (double s : t.samplesMs()) {
            ms += fin(s);
        }
        return ms / 1000.0;
    }

    private static double fin(double v) {
        return Double.isFinite(v) ? v : 0;
    }

    private static String secs(double s) {
        return String.format(Locale.ROOT, "%.3f", s);
    }

    private static String nz(String s) {
        return s == null ? "" : s;
    }

    private static String details(Cell c) {
        RunResult r = c.result();
        StringBuilder sb = new StringBuilder();
        sb.append("status ").append(r.status()).append(", requested ").append(r.requested()).append(", actual ")
                .append(r.actual().map(String::valueOf).orElse("none")).append(", score ").append(Fmt.score(c.score().value())).append(" (")
                .append(c.score().grade().label()).append(")\n");
        r.timings().ifPresent(t -> sb.append("load ").append(Fmt.ms(t.loadMs())).append(" ms, first ").append(Fmt.ms(t.firstMs()))
                .append(" ms, p50 ").append(Fmt.ms(t.p50Ms())).append(" ms, p90 ").append(Fmt.ms(t.p90Ms()))
                .append(" ms, p99 ").append(Fmt.ms(t.p99Ms())).append(" ms over ").append(t.iterations()).append(" iterations\n"));
        r.parity().ifPresent(q -> sb.append("parity vs ").append(q.against()).append(": max abs ").append(Fmt.sci(q.maxAbsErr()))
                .append(", cosine ").append(q.cosine()).append(", tolerance ").append(q.tolerance()).append('\n'));
        for (FallbackHop h : r.fallbackPath()) {
            sb.append(h.taken() ? "-> " : "   ").append(h.backend()).append(": ").append(h.reason()).append('\n');
        }
        if (r.provenance() != null) {
            sb.append("on ").append(r.provenance().host()).append(", ").append(r.provenance().browserLabel());
            if (r.provenance().adapter() != null) {
                sb.append(", adapter ").append(r.provenance().adapter());
            }
            sb.append('\n');
        }
        // XML 1.0 forbids most control characters; an error message from a native library may carry them
        return sb.toString().replaceAll("[\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F]", "?");
    }
}
