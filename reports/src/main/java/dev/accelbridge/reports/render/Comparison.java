package dev.accelbridge.reports.render;

import dev.accelbridge.core.Bytes;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.RuntimeOptions;
import dev.accelbridge.core.SpeedStanding;
import dev.accelbridge.reports.ReportsException;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.Decoding;
import dev.accelbridge.core.Dimension;
import dev.accelbridge.core.Dimensions;
import dev.accelbridge.core.Interval;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.SampleStats;
import dev.accelbridge.core.VersionAxes;
import dev.accelbridge.core.VersionAxis;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Timings;
import dev.accelbridge.reports.query.CaseFilter;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

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
    /**
     * The dimension compared: a run, a host, the lane, or one of the lane's {@link VersionAxis version axes}.
     *
     * @param id        {@code run}, {@code host}, or the dimension's name ({@code lane}, {@code ortWebVersion})
     * @param dimension the dimension compared, or null for a run or a host
     * @param axis      the version axis compared, or null
     */
    public record By(String id, Dimension<?> dimension, VersionAxis axis) {
        /** Two runs: the same case on the same host. */
        public static final By RUN = new By("run", null, null);
        /** Two hosts: the same case. */
        public static final By HOST = new By("host", null, null);
        /** Two lanes (browsers, or a browser and native): the same case (less its lane and versions) on the same host. */
        public static final By LANE = new By(Dimensions.LANE.name(), Dimensions.LANE, null);
        /** Two sets of session options (outputs left on the GPU or read back): the same case in the same lane otherwise. */
        public static final By RUNTIME_OPTIONS = new By(Dimensions.RUNTIME_OPTIONS.name(), Dimensions.RUNTIME_OPTIONS, null);

        /** Two versions of {@code axis} ({@code 141} and {@code 153}): the same case in the same lane otherwise, on the same host. */
        public static By axis(VersionAxis axis) {
            return new By(axis.name(), axis.dimension(), axis);
        }

        /** Every version axis's, in the axes' order: what the report's versions section walks. */
        public static List<By> versions() {
            return VersionAxes.all().stream().map(By::axis).toList();
        }

        /** Two are equal when they compare by the same thing (an axis is one however often it was loaded). */
        @Override
        public boolean equals(Object o) {
            return o instanceof By b && b.id.equals(id);
        }

        @Override
        public int hashCode() {
            return id.hashCode();
        }

        /** The lane less what this compares: what two sides' cases must share. */
        LaneId blank(LaneId l) {
            return axis != null ? l.without(axis) : this.equals(LANE) ? LaneId.NATIVE : l;
        }

        /** The case less what this compares. */
        CaseId blank(CaseId id) {
            return this.equals(RUNTIME_OPTIONS) ? id.withRuntimeOptions(RuntimeOptions.DEFAULT) : id.inLane(blank(id.lane()));
        }

        /**
         * Reads {@code run}, {@code host}, {@code lane} ({@code browser}, its older name, too), {@code runtimeOptions} or a
         * version axis's name or
         * alias ({@code ortWebVersion}, {@code ort-web}, {@code browserMajor}, {@code ortVersion}, {@code ort}).
         */
        public static By parse(String s) {
            String t = s.trim();
            for (By b : List.of(RUN, HOST)) {
                if (b.id.equalsIgnoreCase(t)) {
                    return b;
                }
            }
            if (Dimensions.LANE.isCalled(t)) {
                return LANE;
            }
            if (Dimensions.RUNTIME_OPTIONS.isCalled(t)) {
                return RUNTIME_OPTIONS;
            }
            return VersionAxes.named(t).map(By::axis).orElseThrow(() -> new ReportsException("Cannot compare by '" + s + "'",
                    "compare by run, host, lane, runtimeOptions or a version: " + VersionAxes.all().stream().map(VersionAxis::name).collect(Collectors.joining(", "))));
        }
    }

    /**
     * One case on both sides.
     *
     * @param label   the case, less the dimension compared
     * @param a       A's result, or null
     * @param b       B's result, or null
     * @param ratio   B's p50 over A's, NaN when either did not execute
     * @param ratioCi the ratio's interval: the bootstrap 95 % interval of both sides' samples, widened by the cells'
     *                run-to-run noise where the store knows it ({@link SampleStats#withRunNoise}); null without samples
     * @param significant the interval excludes no change and the ratio differs from 1 by more than the threshold
     * @param runNoise the log ratio's run-to-run noise the interval holds (NaN: not known, the interval is within-run only)
     * @param noiseRuns how many run-level figures it was estimated from (0: none)
     */
    public record Row(String label, RunResult a, RunResult b, double ratio, Interval ratioCi, boolean significant,
                      double runNoise, int noiseRuns) {
        /**
         * For two generations: "tokens/s 868.3 → 29.3 (×0.034 [0.031, 0.036]), TTFT 0.820 → 35.68 ms", B's tokens per second
         * over A's with the interval of the two sides' inter-token latencies; null when either side is not a generation.
         */
        public String decodingChange() {
            var da = a == null || !(a.timings().map(Timings::figures).orElse(null) instanceof Decoding ga) ? null : ga;
            var db = b == null || !(b.timings().map(Timings::figures).orElse(null) instanceof Decoding gb) ? null : gb;
            if (da == null || db == null || !Double.isFinite(da.tokensPerSec()) || !Double.isFinite(db.tokensPerSec())) {
                return null;
            }
            double[] r = db.tokensPerSecOver(da);
            return String.format(java.util.Locale.ROOT, "tokens/s %.1f → %.1f (%s), TTFT %s → %s ms", da.tokensPerSec(),
                    db.tokensPerSec(), Fmt.times(r), Fmt.ms(da.ttftP50Ms()), Fmt.ms(db.ttftP50Ms()));
        }

        /**
         * What the two sides held: "GPU peak 6.0 MiB → 10.0 MiB (×1.66), wasm heap 33.3 MiB → 33.3 MiB, renderer 650.5 MiB →
         * 644.1 MiB"; each figure only where both sides measured it, null when none was ("what does this option cost in
         * memory", by runtime options).
         */
        public String memoryChange() {
            if (a == null || b == null) {
                return null;
            }
            var ma = a.memory();
            var mb = b.memory();
            List<String> parts = new ArrayList<>();
            if (ma.gpu() != null && mb.gpu() != null) {
                long x = ma.gpu().peakBytes();
                long y = mb.gpu().peakBytes();
                parts.add("GPU peak " + Bytes.iec(x) + " → " + Bytes.iec(y)
                        + (x > 0 ? String.format(Locale.ROOT, " (×%.2f)", (double) y / x) : ""));
            }
            change(parts, "wasm heap", ma.wasmHeapBytes(), mb.wasmHeapBytes());
            change(parts, "renderer", ma.processPeak("renderer"), mb.processPeak("renderer"));
            change(parts, "GPU process", ma.processPeak("gpu-process"), mb.processPeak("gpu-process"));
            if (parts.isEmpty()) {
                change(parts, "RSS peak", ma.rssPeak(), mb.rssPeak());
            }
            return parts.isEmpty() ? null : String.join(", ", parts);
        }

        /**
         * What makes the two sides' figures unalike beyond the dimension compared, or null: V8's flags (a lane under
         * {@code --wasm-sync-tier-up} optimises at once, its cold figures and tier-up are not a background-tiering lane's).
         */
        public String caveat() {
            String notSpeed = notSpeed();
            if (notSpeed != null) {
                return notSpeed;
            }
            if (a == null || b == null || a.provenance() == null || b.provenance() == null
                    || a.provenance().syncTierUp() == b.provenance().syncTierUp()) {
                return null;
            }
            return "V8 tiered up otherwise on each side (A " + tiering(a) + ", B " + tiering(b) + "): cold figures are not alike";
        }

        /** Why a side that executed is not compared as speed ("B: software adapter: ..."), or null. */
        private String notSpeed() {
            for (RunResult r : new RunResult[]{a, b}) {
                var st = SpeedStanding.of(r);
                if (r != null && r.status().executed() && !st.counts()) {
                    return (r == a ? "A" : "B") + ": " + st.why() + "; not compared as speed";
                }
            }
            return null;
        }

        private static String tiering(RunResult r) {
            return r.provenance().syncTierUp() ? "at once: --wasm-sync-tier-up" : r.provenance().v8Flags() == null
                    ? "as its browser does (no flags recorded)" : "in the background";
        }

        private static void change(List<String> parts, String what, long x, long y) {
            if (x >= 0 && y >= 0) {
                parts.add(what + " " + Bytes.iec(x) + " → " + Bytes.iec(y));
            }
        }

        static Row of(String label, RunResult a, RunResult b, double threshold, Noise noise) {
            double r = Comparison.ratio(a, b);
            // a ratio is made of two results that ran, each timed ({@link #ratio}): their samples, read by their kind
            if (!Double.isFinite(r) || !(a.outcome() instanceof Outcome.Ran ra) || !(b.outcome() instanceof Outcome.Ran rb)) {
                return new Row(label, a, b, r, null, false, Double.NaN, 0);
            }
            Interval within = SampleStats.ratioCi(ra.timings().samplesMs(), rb.timings().samplesMs());
            double[] n = noise.of(a, b);
            Interval ci = n == null ? within : SampleStats.withRunNoise(r, within, n[0], (int) n[1]);
            boolean known = n != null && Double.isFinite(n[0]) && n[1] >= SampleStats.NOISE_MIN_RUNS;
            return new Row(label, a, b, r, ci, SampleStats.significant(r, ci, threshold), known ? n[0] : Double.NaN,
                    known ? (int) n[1] : 0);
        }
    }

    /**
     * The run-to-run noise of a pair's log ratio: {@code {logSd, runs}}, or null when the pair's cells have too little
     * history. {@link Comparisons} reads it from the store.
     */
    @FunctionalInterface
    public interface Noise {
        /** No history: intervals from the two runs' samples alone. */
        Noise NONE = (a, b) -> null;

        double[] of(RunResult a, RunResult b);
    }

    /**
     * Pairs {@code sideA} with {@code sideB}.
     *
     * @param by    the dimension that differs
     * @param sideA results of side A (one result per case: the newest wins)
     * @param sideB results of side B
     */
    public static Comparison of(By by, String a, String b, List<RunResult> sideA, List<RunResult> sideB) {
        return of(by, a, b, sideA, sideB, SampleStats.CHANGE_THRESHOLD, Noise.NONE);
    }

    /** Same, calling a change significant above {@code threshold}, with no run-to-run history. */
    public static Comparison of(By by, String a, String b, List<RunResult> sideA, List<RunResult> sideB, double threshold) {
        return of(by, a, b, sideA, sideB, threshold, Noise.NONE);
    }

    /**
     * Same, calling a change significant above {@code threshold} ({@link SampleStats#significant}), each interval holding
     * the run-to-run noise {@code noise} gives.
     */
    public static Comparison of(By by, String a, String b, List<RunResult> sideA, List<RunResult> sideB, double threshold,
                                Noise noise) {
        Function<RunResult, String> match = by.equals(By.RUN) ? r -> r.id().key() + "@" + r.hostFingerprint()
                : by.equals(By.HOST) ? r -> r.id().key()
                : r -> by.blank(r.id()).key() + "@" + r.hostFingerprint();
        Map<String, RunResult> as = index(sideA, match);
        Map<String, RunResult> bs = index(sideB, match);
        List<Row> matched = new ArrayList<>();
        List<Row> single = new ArrayList<>();
        for (var e : as.entrySet()) {
            RunResult rb = bs.get(e.getKey());
            (rb == null ? single : matched).add(Row.of(label(by, e.getValue()), e.getValue(), rb, threshold, noise));
        }
        for (var e : bs.entrySet()) {
            if (!as.containsKey(e.getKey())) {
                single.add(Row.of(label(by, e.getValue()), null, e.getValue(), threshold, noise));
            }
        }
        matched.addAll(single);
        return new Comparison(by, a, b, matched);
    }

    private static Map<String, RunResult> index(List<RunResult> rs, Function<RunResult, String> key) {
        Map<String, RunResult> m = new LinkedHashMap<>();
        for (RunResult r : rs) {
            m.merge(key.apply(r), r, (x, y) -> y.startedAt() != null && x.startedAt() != null && y.startedAt().isBefore(x.startedAt()) ? x : y);
        }
        return m;
    }

    /** B's p50 over A's when both ran on the same backend (a case that fell back on one side is a change of status, not of speed). */
    private static double ratio(RunResult a, RunResult b) {
        if (a == null || b == null || !(a.outcome() instanceof Outcome.Ran ra) || !(b.outcome() instanceof Outcome.Ran rb)
                || !a.status().executed() || !b.status().executed() || ra.backend() != rb.backend()) {
            return Double.NaN;
        }
        if (!SpeedStanding.of(a).counts() || !SpeedStanding.of(b).counts()) {
            return Double.NaN; // not a speed: no ratio, never significant (the row's caveat says why)
        }
        double pa = ra.timings().p50Ms();
        double pb = rb.timings().p50Ms();
        return pa > 0 && pb > 0 ? pb / pa : Double.NaN;
    }

    private static String label(By by, RunResult r) {
        var id = by.equals(By.RUNTIME_OPTIONS) ? by.blank(r.id()) : r.id();
        String lane = by == By.LANE ? "" : " [" + by.blank(id.lane()).key() + "]";
        String host = by == By.HOST ? "" : " @ " + CaseFilter.hostName(r);
        return id.row() + id.dimensionsTag() + " · " + id.requested().id() + lane + host;
    }
}
