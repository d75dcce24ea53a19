package dev.accelbridge.reports.render;

import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.history.ChangeKind;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * The first screen of a report and of the dashboard: what passed, what fell back and why, what is wrong and where it
 * starts, what got slower, and where it ran, before any table. The same sections for {@code report.html},
 * {@code report.md} and the dashboard ({@link #html}).
 */
@PublicApi
public final class Overview {
    /** How many regressions, improvements or wrong outputs the first screen names before it points to their section. */
    static final int NAMED = 6;

    private Overview() {
    }

    /** The first screen as HTML (a fragment; every text escaped), as report.html opens and the dashboard shows it. */
    public static String html(Matrix m) {
        StringBuilder sb = new StringBuilder("<section id=\"overview\">\n");
        for (Section s : sections(m)) {
            HtmlRenderer.write(sb, s);
        }
        return sb.append("</section>\n").toString();
    }

    /** Its sections, in reading order. */
    static List<Section> sections(Matrix m) {
        return List.of(glance(m), changes(m), Findings.fallbacks(m), wrong(m), where(m));
    }

    /** Counts by status, one row per browser (and its versions), one column per backend. */
    static Section glance(Matrix m) {
        boolean multiHost = m.cells().stream().map(Cell::host).distinct().count() > 1;
        List<String> backends = new ArrayList<>();
        Map<String, Map<String, Map<Status, Integer>>> counts = new LinkedHashMap<>();
        Map<Status, Integer> all = new EnumMap<>(Status.class);
        for (Cell c : m.cells()) {
            String backend = c.key().requested().id();
            if (!backends.contains(backend)) {
                backends.add(backend);
            }
            String lane = c.browserLabel() + c.versionsLabel() + (multiHost ? " @ " + c.host() : "");
            counts.computeIfAbsent(lane, k -> new LinkedHashMap<>()).computeIfAbsent(backend, k -> new EnumMap<>(Status.class))
                    .merge(c.result().status(), 1, Integer::sum);
            all.merge(c.result().status(), 1, Integer::sum);
        }
        List<String> header = new ArrayList<>(List.of("browser"));
        header.addAll(backends);
        List<Section.Row> rows = new ArrayList<>();
        counts.forEach((lane, byBackend) -> {
            List<Section.Entry> cells = new ArrayList<>(List.of(new Section.Entry(lane, null)));
            for (String b : backends) {
                Map<Status, Integer> n = byBackend.get(b);
                cells.add(n == null ? new Section.Entry("", null) : new Section.Entry(counted(n), cls(n)));
            }
            rows.add(new Section.Row(null, cells));
        });
        String intro = m.cells().size() + " cells: " + counted(all).replace(" · ", ", ") + ". " + Glyph.LEGEND + ".";
        return Section.table("glance", "At a glance", intro, new Section.Table(header, rows), "No cells in this scope.");
    }

    /** "✓ 5 · ↪ 2 · ✗ 1": a count per status, in status order. */
    static String counted(Map<Status, Integer> n) {
        List<String> parts = new ArrayList<>();
        n.forEach((s, k) -> parts.add(Glyph.of(s) + " " + k));
        return String.join(" · ", parts);
    }

    /** The class of a count: bad when anything is wrong or failed, warn when something fell back or could not run. */
    private static String cls(Map<Status, Integer> n) {
        if (n.containsKey(Status.WRONG_OUTPUT) || n.containsKey(Status.FAILED)) {
            return "bad";
        }
        return n.keySet().stream().allMatch(s -> s == Status.PASSED) ? "ok" : "warn";
    }

    /** Regressions and improvements since the cells' earlier comparable runs, the first few named. */
    static Section changes(Matrix m) {
        List<Section.Item> items = new ArrayList<>();
        List<Cell> flagged = new ArrayList<>(m.regressions());
        flagged.addAll(m.improvements());
        long compared = m.cells().stream().filter(c -> c.change() != null && c.change().kind() != ChangeKind.INSUFFICIENT_DATA).count();
        for (Cell c : flagged.subList(0, Math.min(NAMED, flagged.size()))) {
            var ch = c.change();
            items.add(new Section.Item(ch.kind().label() + " ", c.row() + " " + c.column() + ": p50 " + Fmt.ms(ch.baselineP50()) + " → "
                    + Fmt.ms(ch.currentP50()) + " ms (" + ch.percent() + ")", List.of()));
        }
        if (flagged.size() > NAMED) {
            items.add(new Section.Item(null, (flagged.size() - NAMED) + " more in \"Regressions and improvements\" below.", List.of()));
        }
        String none = compared == 0 ? "No cell has earlier comparable runs yet: changes are flagged from a cell's second run on."
                : "None of the " + compared + " cells with earlier runs changed beyond its threshold and run-to-run noise.";
        String title = "Since the earlier runs: " + m.regressions().size() + " regression(s), " + m.improvements().size() + " improvement(s)";
        return Section.list("since", title, items, none);
    }

    /** Each wrong output with where it starts (the bisection's first diverging node) or why that is not known. */
    static Section wrong(Matrix m) {
        List<Section.Item> items = new ArrayList<>();
        List<Cell> wrong = m.cells().stream().filter(c -> c.result().status() == Status.WRONG_OUTPUT).toList();
        for (Cell c : wrong.subList(0, Math.min(NAMED, wrong.size()))) {
            String first = DrillDowns.firstDivergence(c.result());
            var parity = c.result().parity().orElse(null);
            items.add(new Section.Item(c.row() + " " + c.column() + ": ", (parity == null ? String.valueOf(c.result().reason())
                    : parity.describe()) + "; " + (first != null ? first : c.result().analysis().bisection() != null
                    ? c.result().analysis().bisection().describe() : "not bisected ('accelbridge bisect' with its model and backend finds the first bad node)"),
                    List.of()));
        }
        if (wrong.size() > NAMED) {
            items.add(new Section.Item(null, (wrong.size() - NAMED) + " more under \"Findings\" below.", List.of()));
        }
        return Section.list("wrong", "Wrong outputs: " + wrong.size(), items, "No output outside tolerance.");
    }

    /**
     * The one line a report says of its software-adapter cells, or null when none executed: they have their verdicts, and
     * their figures (indicative unless settled by {@code --sampling full}) are never ranked, recommended or compared as speed.
     */
    static String softwareAdapter(Matrix m) {
        List<Cell> software = m.cells().stream().filter(Cell::softwareAdapter).toList();
        long n = software.size();
        long window = software.stream().filter(c -> c.result().timings().map(t -> t.quality().verdictWindow()).orElse(false)).count();
        if (n == 0) {
            return null;
        }
        return n + " cell(s) ran WebGPU on a software adapter (the CPU posing as a GPU): each has its verdict; its figures "
                + (window == n ? "are indicative (the verdict's runs only) and never" : "are never") + " ranked, recommended or compared as "
                + "speed" + (window > 0 ? " (--sampling full settles them, still not as a GPU's)" : "") + ".";
    }

    /** The hosts, the browsers with their adapters, and every runtime version seen. */
    static Section where(Matrix m) {
        List<Section.Item> items = new ArrayList<>();
        for (HostInfo h : m.hosts().values()) {
            items.add(new Section.Item(h.hostname() + ": ", h.os() + " · " + h.cpuModel() + " (" + h.physicalCores() + " cores, "
                    + h.logicalCores() + " threads) · " + String.format(Locale.ROOT, "%.0f GiB", h.memoryBytes() / 1073741824.0)
                    + " · " + (h.gpus().isEmpty() ? "no GPU seen" : String.join(", ", h.gpus())), List.of()));
        }
        Map<String, TreeSet<String>> browsers = new TreeMap<>();
        Map<String, TreeSet<String>> runtimes = new TreeMap<>();
        for (Cell c : m.cells()) {
            Provenance p = c.result().provenance();
            if (p == null) {
                continue;
            }
            if (p.browser() != null) {
                browsers.computeIfAbsent(p.browserLabel(), k -> new TreeSet<>());
                if (p.adapter() != null) {
                    boolean said = p.adapter().contains("software");
                    browsers.get(p.browserLabel()).add(p.adapter() + (Boolean.TRUE.equals(p.softwareAdapter()) && !said ? " (software adapter)" : ""));
                }
            }
            p.runtimeVersions().forEach((k, v) -> runtimes.computeIfAbsent(k, x -> new TreeSet<>()).add(v));
        }
        if (!browsers.isEmpty()) {
            List<String> bs = new ArrayList<>();
            browsers.forEach((b, adapters) -> bs.add(b + (adapters.isEmpty() ? "" : " [WebGPU adapter " + String.join(", ", adapters) + "]")));
            items.add(new Section.Item("browsers: ", String.join(" · ", bs), List.of()));
        }
        String software = softwareAdapter(m);
        if (software != null) {
            items.add(new Section.Item("software adapter: ", software, List.of()));
        }
        if (!runtimes.isEmpty()) {
            List<String> rs = new ArrayList<>();
            runtimes.forEach((k, v) -> rs.add(k + " " + String.join(", ", v)));
            items.add(new Section.Item("versions: ", String.join(" · ", rs), List.of()));
        }
        return Section.list("where", "Where it ran", items, null);
    }
}
