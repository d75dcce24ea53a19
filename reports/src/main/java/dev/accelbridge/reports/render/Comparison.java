package dev.accelbridge.reports.render;

import dev.accelbridge.core.PublicApi;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.query.CaseFilter;
import dev.accelbridge.reports.store.ResultJson;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;

/**
 * Two sides of the matrix side by side: two runs, two hosts or two browsers. Cases are matched on every dimension
 * except the one compared, and each pair carries the ratio of B's p50 to A's (above 1: B is slower).
 *
 * @param by   what differs between the sides
 * @param a    side A's label (a run id, a host, a browser)
 * @param b    side B's label
 * @param rows matched cases, then cases only one side has
 */
@PublicApi
public record Comparison(By by, String a, String b, List<Row> rows) {
    /** The dimension compared. */
    public enum By {
        /** Two runs: the same case on the same host. */
        RUN,
        /** Two hosts: the same case. */
        HOST,
        /** Two lanes (browsers, or a browser and native): the same case (less its lane) on the same host. */
        LANE;

        /** Reads {@code run}, {@code host} or {@code lane} ({@code browser}, its older name, too). */
        public static By parse(String s) {
            String t = s.trim().toUpperCase(Locale.ROOT);
            try {
                return t.equals("BROWSER") ? LANE : valueOf(t);
            } catch (IllegalArgumentException e) {
                throw new dev.accelbridge.reports.ReportsException("Cannot compare by '" + s + "'", "compare by run, host or lane");
            }
        }
    }

    /**
     * One case on both sides.
     *
     * @param label   the case, less the dimension compared
     * @param a       A's result, or null
     * @param b       B's result, or null
     * @param ratio   B's p50 over A's, NaN when either did not execute
     */
    public record Row(String label, RunResult a, RunResult b, double ratio) {
    }

    /**
     * Pairs {@code sideA} with {@code sideB}.
     *
     * @param by    the dimension that differs
     * @param sideA results of side A (one result per case: the newest wins)
     * @param sideB results of side B
     */
    public static Comparison of(By by, String a, String b, List<RunResult> sideA, List<RunResult> sideB) {
        Function<RunResult, String> match = switch (by) {
            case RUN -> r -> r.id().key() + "@" + r.hostFingerprint();
            case HOST -> r -> r.id().key();
            case LANE -> r -> r.id().inLane(LaneId.NATIVE).key() + "@" + r.hostFingerprint();
        };
        Map<String, RunResult> as = index(sideA, match);
        Map<String, RunResult> bs = index(sideB, match);
        List<Row> matched = new ArrayList<>();
        List<Row> single = new ArrayList<>();
        for (var e : as.entrySet()) {
            RunResult rb = bs.get(e.getKey());
            (rb == null ? single : matched).add(new Row(label(by, e.getValue()), e.getValue(), rb, ratio(e.getValue(), rb)));
        }
        for (var e : bs.entrySet()) {
            if (!as.containsKey(e.getKey())) {
                single.add(new Row(label(by, e.getValue()), null, e.getValue(), Double.NaN));
            }
        }
        matched.addAll(single);
        return new Comparison(by, a, b, matched);
    }

    /** The comparison as the dashboard reads it. */
    public ObjectNode toJson() {
        ObjectNode o = ResultJson.MAPPER.createObjectNode();
        o.put("by", by.name().toLowerCase(Locale.ROOT)).put("a", a).put("b", b);
        ArrayNode rs = o.putArray("rows");
        for (Row r : rows) {
            ObjectNode n = rs.addObject();
            n.put("label", r.label());
            side(n, "a", r.a());
            side(n, "b", r.b());
            n.set("ratio", Views.figure(r.ratio()));
            n.put("ratioLabel", Double.isFinite(r.ratio()) ? String.format(Locale.ROOT, "×%.2f", r.ratio()) : "");
        }
        return o;
    }

    private static void side(ObjectNode n, String name, RunResult r) {
        ObjectNode s = n.putObject(name);
        if (r == null) {
            s.put("status", "ABSENT");
            return;
        }
        s.put("key", r.id().key()).put("runId", r.runId()).put("status", r.status().name())
                .put("actual", r.actual() == null ? null : r.actual().id())
                .put("host", CaseFilter.hostName(r)).put("browser", r.provenance() == null ? r.id().lane().id() : r.provenance().browserLabel());
        s.set("p50", Views.figure(r.timings() == null ? Double.NaN : r.timings().p50Ms()));
    }

    private static Map<String, RunResult> index(List<RunResult> rs, Function<RunResult, String> key) {
        Map<String, RunResult> m = new LinkedHashMap<>();
        for (RunResult r : rs) {
            m.merge(key.apply(r), r, (x, y) -> y.startedAt() != null && x.startedAt() != null && y.startedAt().isBefore(x.startedAt()) ? x : y);
        }
        return m;
    }

    private static double ratio(RunResult a, RunResult b) {
        if (a == null || b == null || a.timings() == null || b.timings() == null || !a.status().executed() || !b.status().executed()) {
            return Double.NaN;
        }
        double pa = a.timings().p50Ms();
        double pb = b.timings().p50Ms();
        return pa > 0 && pb > 0 ? pb / pa : Double.NaN;
    }

    private static String label(By by, RunResult r) {
        var id = r.id();
        String lane = by == By.LANE ? "" : " [" + id.lane().id() + "]";
        String host = by == By.HOST ? "" : " @ " + CaseFilter.hostName(r);
        return id.row() + id.dimensionsTag() + " · " + id.requested().id() + lane + host;
    }
}
