package dev.accelbridge.reports.recommend;

import dev.accelbridge.core.Decoding;
import dev.accelbridge.core.Defect;
import dev.accelbridge.core.Interval;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.SampleStats;
import dev.accelbridge.core.SpeedStanding;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.TokenCheck;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Dtype recommendations from stored verdicts, per model with more than one variant, host, lane, backend, session options and
 * scenario (a variant with graph capture is never weighed against fp32 without). Pure. A variant qualifies when it ran on the
 * backend asked for (no fallback) with no defect ({@link RunResult#defect()}: its stored verdict against its own native CPU
 * run, never the stated closeness), its user-visible output ({@link #closeness}) is at least the stated cosine to the fp32
 * model run natively on the CPU, and its figures say something of its speed. The fastest that qualifies is the answer
 * where its interval says it is faster than fp32; where the intervals overlap, fp32 (as fast, and not lossy) is. Nothing
 * is estimated: a variant that did not run there is "not measured". A half-precision variant the backend computed in float32
 * in part ({@link dev.accelbridge.core.ComputedPrecision}) is advice for that backend alone and says so: advice for a GPU
 * comes from that GPU's own cells only.
 */
@PublicApi
public final class DtypeRecommender {
    /** The default stated tolerance: a user-visible cosine of at least 0.99 to fp32 native. */
    public static final double DEFAULT_MIN_CLOSENESS = 0.99;

    private DtypeRecommender() {
    }

    /**
     * @param results      the results to learn from (of a cell seen more than once, the newest counts)
     * @param minCloseness the lowest user-visible cosine to fp32 native a variant may have
     */
    public static List<DtypeRecommendation> recommend(List<RunResult> results, double minCloseness) {
        Map<List<String>, List<RunResult>> byModel = new LinkedHashMap<>();
        for (RunResult r : results) {
            byModel.computeIfAbsent(List.of(String.valueOf(r.hostFingerprint()), r.suite().id(), r.model(), r.inputSet(),
                    String.valueOf(r.id().batchSize())), k -> new ArrayList<>()).add(r);
        }
        List<DtypeRecommendation> out = new ArrayList<>();
        for (List<RunResult> rs : byModel.values()) {
            if (rs.stream().map(r -> r.id().precision()).distinct().count() < 2) {
                continue; // one variant: nothing to choose between
            }
            List<Precision> variants = rs.stream().map(r -> r.id().precision()).distinct().sorted().toList();
            Map<List<String>, Map<Precision, RunResult>> byTarget = new LinkedHashMap<>();
            for (RunResult r : rs) {
                // the newest of a cell, whatever order the results came in
                byTarget.computeIfAbsent(List.of(r.lane().key(), r.requested().id(), r.id().runtimeOptions().id(), r.id().scenario().id()),
                        k -> new EnumMap<>(Precision.class)).merge(r.id().precision(), r, DtypeRecommender::newer);
            }
            byTarget.forEach((key, here) -> out.add(one(key, here, variants, minCloseness)));
        }
        out.sort(Comparator.comparing(DtypeRecommendation::host).thenComparing(DtypeRecommendation::model)
                .thenComparing(DtypeRecommendation::backend).thenComparing(DtypeRecommendation::target)
                .thenComparing(DtypeRecommendation::options).thenComparing(DtypeRecommendation::scenario));
        return out;
    }

    private static RunResult newer(RunResult a, RunResult b) {
        return b.startedAt() != null && (a.startedAt() == null || b.startedAt().isAfter(a.startedAt())) ? b : a;
    }

    private static DtypeRecommendation one(List<String> key, Map<Precision, RunResult> here, List<Precision> variants, double min) {
        RunResult any = here.values().iterator().next();
        RunResult fp32 = here.get(Precision.FP32);
        RunResult fp32Timed = fp32 != null && timed(fp32) ? fp32 : null;
        List<RunResult> qualified = new ArrayList<>();
        Map<Precision, String> why = new EnumMap<>(Precision.class);
        for (Precision p : variants) {
            RunResult r = here.get(p);
            String no = disqualified(r, min);
            if (no != null) {
                why.put(p, no);
            } else {
                qualified.add(r);
            }
        }
        if (fp32Timed == null) {
            // nothing shows a variant faster than fp32 where fp32 was not timed: none ships as faster
            String none = "no speed evidence against fp32: " + untimed(fp32);
            qualified.stream().filter(r -> r.id().precision() != Precision.FP32).forEach(r -> why.put(r.id().precision(), none));
            qualified.removeIf(r -> r.id().precision() != Precision.FP32);
        }
        qualified.sort(Comparator.comparingDouble(Recommender::speedMs));
        RunResult best = qualified.isEmpty() ? null : qualified.get(0);
        if (best != null && fp32Timed != null && qualified.contains(fp32Timed) && best != fp32Timed
                && !Speed.of(best, fp32Timed).faster()) {
            // no faster than fp32 by what was measured: the faithful one is the advice
            why.put(best.id().precision(), "no faster than fp32 here: " + Speed.of(best, fp32Timed).describe("fp32"));
            best = fp32Timed;
        }
        for (RunResult c : qualified) {
            if (c != best && !why.containsKey(c.id().precision())) {
                Speed s = Speed.of(best, c);
                String b = best.id().precision().id();
                why.put(c.id().precision(), (s.faster() ? "slower than " : "no faster than ") + b + " (" + b + " "
                        + s.describe(c.id().precision().id()) + ")");
            }
        }
        List<DtypeRecommendation.Skipped> skipped = new ArrayList<>();
        for (Precision p : variants) {
            if (why.containsKey(p)) {
                skipped.add(new DtypeRecommendation.Skipped(p, why.get(p)));
            }
        }
        String host = any.provenance() == null || any.provenance().host() == null ? "?" : any.provenance().host();
        return new DtypeRecommendation(host, any.hostFingerprint(), any.suite().id(), any.model(), key.get(0), key.get(1), key.get(2),
                key.get(3), min, best == null ? null : choice(best, fp32Timed),
                fp32Timed != null && closeness(fp32Timed).isPresent() ? choice(fp32Timed, fp32Timed) : null, skipped);
    }

    /** Why fp32 gives no speed to weigh a variant against here. */
    private static String untimed(RunResult fp32) {
        if (fp32 == null) {
            return "fp32 was not measured here";
        }
        if (!fp32.status().executed()) {
            return "fp32 " + fp32.status() + " here" + (fp32.reason() == null ? "" : " (" + fp32.reason() + ")");
        }
        var st = SpeedStanding.of(fp32);
        return "fp32's figures here do not stand as a speed (" + (st.counts() ? "absent" : st.why()) + ")";
    }

    /** Why {@code r} cannot be the answer, or null when it qualifies. */
    private static String disqualified(RunResult r, double min) {
        if (r == null) {
            return "not measured here";
        }
        if (!r.status().executed()) {
            return r.status() + (r.reason() == null ? "" : ": " + r.reason());
        }
        if (!r.ranOn(r.requested())) {
            return "fell back to " + (r.actual().map(ba -> ba.id()).orElse("nothing")) + (r.reason() == null ? "" : ": " + r.reason());
        }
        if (r.defect()) {
            // the stored verdict: this backend computes the variant otherwise than its own native run, beyond rounding
            return "a defect here (WRONG_OUTPUT" + r.correctness().map(q -> ": " + q.describe()).orElse("") + ")";
        }
        if (r.defectFinding() == Defect.UNKNOWN) {
            return "not known to compute the variant right here: outside its bound against fp32 native, and its own native "
                    + "CPU run was not compared";
        }
        OptionalDouble c = closeness(r);
        if (c.isEmpty()) {
            return "no output compared with fp32 native";
        }
        if (Double.isNaN(c.getAsDouble())) {
            return "lossy: its outputs are not finite where fp32 native's are";
        }
        if (!(c.getAsDouble() >= min)) {
            return "lossy: " + DtypeRecommendation.Choice.closeness(closenessOf(r), c.getAsDouble()) + ", below " + min;
        }
        if (!timed(r)) {
            var st = SpeedStanding.of(r);
            return "its figures do not stand as a speed (" + (st.counts() ? "absent" : st.why()) + ")";
        }
        return null;
    }

    private static DtypeRecommendation.Choice choice(RunResult r, RunResult fp32) {
        Speed s = fp32 == null || r == fp32 ? null : Speed.of(r, fp32);
        return new DtypeRecommendation.Choice(r.id().precision(), closeness(r).orElse(Double.NaN), closenessOf(r), Recommender.speedMs(r),
                s == null ? r == fp32 ? 1 : Double.NaN : s.ratio(), s == null ? null : s.interval(), reference(r), r.analysis().computed());
    }

    /**
     * How much faster {@code fast} is than {@code slow} (the slow one's figure over the fast one's) and the 95 % interval of
     * that ratio from both sides' samples; null where either side has too few samples for one.
     */
    record Speed(double ratio, Interval interval) {
        static Speed of(RunResult fast, RunResult slow) {
            double[] a = Recommender.speedSamples(fast);
            double[] b = Recommender.speedSamples(slow);
            return new Speed(Recommender.speedMs(slow) / Recommender.speedMs(fast), SampleStats.ratioCi(a, b));
        }

        /** Faster where the interval excludes 1 on the faster side, never on the figures alone. */
        boolean faster() {
            return interval != null && interval.lo() > 1;
        }

        String describe(String other) {
            return DtypeRecommendation.Choice.speed(ratio, interval, other);
        }
    }

    private static boolean timed(RunResult r) {
        return SpeedStanding.of(r).counts() && r.timings().map(t -> t.p50Ms() > 0).orElse(false);
    }

    /**
     * What a user reads off the variant's outputs against fp32 native, from 0 to 1: its fidelity's closeness
     * ({@link dev.accelbridge.core.Fidelity#closeness()}) for a dtype variant; for an fp32 case, the same reading against
     * the fp32 native run (a generation's share of generations giving its tokens, the readout's lowest cosine, else the raw
     * outputs'); empty when nothing was compared. The fp32 native CPU run itself is the reference (1).
     */
    static OptionalDouble closeness(RunResult r) {
        var f = r.fidelity();
        if (f.isPresent()) {
            OptionalDouble c = f.get().closeness();
            return c.isPresent() ? c : OptionalDouble.of(Double.NaN);
        }
        Decoding d = r.timings().map(tm -> tm.figures()).orElse(null) instanceof Decoding g ? g : null;
        if (d != null && d.generations() > 0) { // a generation's users read its tokens: the share of generations giving fp32's
            return d.check() == TokenCheck.REFERENCE ? OptionalDouble.of(d.verified() / (double) d.generations())
                    : reference(r) ? OptionalDouble.of(1) : OptionalDouble.empty();
        }
        if (r.analysis() != null && r.analysis().readout() != null) {
            return OptionalDouble.of(r.analysis().readout().minCosine());
        }
        return r.parity().map(q -> OptionalDouble.of(q.cosine()))
                .orElseGet(() -> reference(r) ? OptionalDouble.of(1) : OptionalDouble.empty());
    }

    /** The fp32 native CPU run itself: the reference every variant is read against. */
    private static boolean reference(RunResult r) {
        return r.id().isNativeCpu() && r.id().precision() == Precision.FP32 && r.status() == Status.PASSED;
    }

    private static String closenessOf(RunResult r) {
        var f = r.fidelity();
        if (f.isPresent()) {
            return f.get().closenessOf();
        }
        if (r.timings().map(tm -> tm.figures()).orElse(null) instanceof Decoding g && g.generations() > 0) {
            return "tokens";
        }
        return r.analysis() != null && r.analysis().readout() != null ? r.analysis().readout().kind().id() : "outputs";
    }
}
