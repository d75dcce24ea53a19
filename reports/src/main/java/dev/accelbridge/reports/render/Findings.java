package dev.accelbridge.reports.render;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Diagnostic;
import dev.accelbridge.core.FallbackHop;
import dev.accelbridge.core.Severity;
import dev.accelbridge.core.Status;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * What a run found, grouped: one entry per finding (its kind and its message with the figures that vary taken out), with
 * its severity, how many cells it holds and those cells on demand; one entry per way of falling back (backend, browser and
 * reason). Every diagnostic stays on its cell in {@code matrix.json}; only the reports group them.
 */
final class Findings {
    /** Numbers (signed, decimal, exponent, with a unit's percent sign) that vary between cells of one finding. */
    private static final Pattern NUMBER = Pattern.compile("[-−+]?\\d+(?:[.,]\\d+)*(?:e[-+]?\\d+)?");
    /** Hexadecimal ids (launch slots, hashes) and temporary paths that differ per cell. */
    private static final Pattern ID = Pattern.compile("\\b[0-9a-f]{8,}\\b|/tmp/\\S+");

    private Findings() {
    }

    /** A message with what varies per cell replaced, so the same finding reads the same everywhere. */
    static String normalised(String message) {
        if (message == null) {
            return "";
        }
        return NUMBER.matcher(ID.matcher(message).replaceAll("…")).replaceAll("#");
    }

    /** One finding: its severity, kind, the message as the first cell said it, what to do, and the cells. */
    record Group(Severity severity, String code, String message, String action, List<String> cells, boolean varies) {
    }

    /** Every diagnostic of every cell grouped by kind and normalised message, most severe first, then the most cells. */
    static List<Group> groups(Matrix m) {
        Map<String, List<Matrix.Finding>> by = new LinkedHashMap<>();
        for (Matrix.Finding f : m.findings()) {
            Diagnostic d = f.diagnostic();
            by.computeIfAbsent(d.severity() + "\u0000" + d.code() + "\u0000" + normalised(d.message()), k -> new ArrayList<>()).add(f);
        }
        List<Group> out = new ArrayList<>();
        by.values().forEach(fs -> {
            Diagnostic first = fs.get(0).diagnostic();
            boolean varies = fs.stream().anyMatch(f -> !f.diagnostic().message().equals(first.message()));
            out.add(new Group(first.severity(), first.code(), first.message(), first.action(),
                    fs.stream().map(f -> f.cell().row() + " " + f.cell().column() + " @ " + f.cell().host()
                            + (varies ? ": " + f.diagnostic().message() : "")).toList(), varies));
        });
        out.sort(Comparator.comparing(Group::severity).thenComparing(g -> -g.cells().size()));
        return out;
    }

    /** The diagnostics section: one line per finding, its cells under it on demand. */
    static Section diagnostics(Matrix m) {
        List<Section.Item> items = new ArrayList<>();
        for (Group g : groups(m)) {
            String count = g.cells().size() == 1 ? "1 cell" : g.cells().size() + " cells";
            items.add(Section.Item.folded(g.severity().id() + " · " + g.code() + " · " + count + ": ",
                    (g.varies() ? "e.g. " : "") + g.message() + " — " + g.action(), g.cells().stream().map(c -> new Section.Step(c, false)).toList()));
        }
        return Section.list("diagnostics", "Findings (" + m.findings().size() + " diagnostics in " + items.size() + " kinds)", items, "None.");
    }

    /** The hop that made a cell fall back: the first one not taken, whose reason says why. */
    private static FallbackHop firstRefused(List<FallbackHop> hops) {
        return hops.stream().filter(h -> !h.taken()).findFirst().orElse(null);
    }

    /** The backend a fallen-back cell ran on ("?" for a record that does not say). */
    private static String ran(Cell c) {
        return c.result().actual().map(BackendId::id).orElse("?");
    }

    /** What fell back where ("webnn-gpu → wasm in firefox 153"), and why. */
    private record Said(String how, String why) {
    }

    /** Fallbacks grouped by what was asked, where it ran, the browser and why ("webnn-gpu → wasm in firefox 153: …"). */
    static Section fallbacks(Matrix m) {
        Map<String, List<Cell>> by = new LinkedHashMap<>();
        Map<String, Said> said = new LinkedHashMap<>(); // as the first cell of each way of falling back says it
        for (Cell c : m.cells()) {
            if (c.result().status() != Status.FELL_BACK) {
                continue;
            }
            FallbackHop refused = firstRefused(c.result().fallbackPath());
            String why = refused == null ? String.valueOf(c.result().reason()) : refused.reason();
            String how = c.key().requested().id() + " → " + ran(c) + " in " + c.browserLabel();
            String key = how + ": " + normalised(why);
            by.computeIfAbsent(key, k -> new ArrayList<>()).add(c);
            said.putIfAbsent(key, new Said(how, why));
        }
        List<Section.Item> items = new ArrayList<>();
        by.forEach((key, cells) -> items.add(Section.Item.folded(said.get(key).how() + " · " + cells.size()
                        + (cells.size() == 1 ? " cell: " : " cells: "), said.get(key).why(),
                cells.stream().map(c -> new Section.Step(c.row() + " " + c.column() + " @ " + c.host() + ", p50 " + Fmt.ms(c.p50())
                        + " ms on " + ran(c), false)).toList())));
        long n = by.values().stream().mapToLong(List::size).sum();
        return Section.list("fell-back", "Fallbacks: " + n + " cell(s), " + items.size() + " reason(s)", items, "No cell fell back.");
    }
}
