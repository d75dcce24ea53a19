package dev.accelbridge.reports.recommend;

import dev.accelbridge.core.Precision;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

/**
 * Dtype recommendations from measured results, per model with more than one variant, host, lane and backend. Pure. A
 * variant qualifies when it ran on the backend asked for (no fallback) with figures that say something of its speed, its
 * user-visible output ({@link #closeness}) is at least the stated cosine to the fp32 model run natively on the CPU, and its
 * outputs are at least that cosine to its own native CPU run where that was compared (below it, the browser computes the
 * variant wrongly: a defect, not the dtype's loss; above it, two correct implementations rounding apart); the fastest that
 * qualifies is the answer. Nothing is estimated: a variant that did not run
 * there is "not measured".
 */
@PublicApi
public final class DtypeRecommender {
    /** The default stated tolerance: a user-visible cosine of at least 0.99 to fp32 native. */
    public static final double DEFAULT_MIN_CLOSENESS = 0.99;

    private DtypeRecommender() {
    }

    /**
     * @param results      the results to learn from (the newest of every cell)
     * @param minCloseness the lowest user-visible cosine to fp32 native a variant may have
     */
    public static List<DtypeRecommendation> recommend(List<RunResult> results, double minCloseness) {
        Map<List<String>, List<RunResult>> byModel = new LinkedHashMap<>();
        for (RunResult r : results) {
            byModel.computeIfAbsent(List.of(r.hostFingerprint(), r.suite().id(), r.model(), r.inputSet(),
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
                byTarget.computeIfAbsent(List.of(r.lane().key(), r.requested().id()), k -> new EnumMap<>(Precision.class))
                        .put(r.id().precision(), r);
            }
            byTarget.forEach((key, here) -> out.add(one(key.get(0), key.get(1), here, variants, minCloseness)));
        }
        out.sort(Comparator.comparing(DtypeRecommendation::host).thenComparing(DtypeRecommendation::model)
                .thenComparing(DtypeRecommendation::backend).thenComparing(DtypeRecommendation::target));
        return out;
    }

    private static DtypeRecommendation one(String target, String backend, Map<Precision, RunResult> here, List<Precision> variants,
                                           double min) {
        RunResult any = here.values().iterator().next();
        RunResult fp32 = here.get(Precision.FP32);
        double fp32Ms = fp32 != null && timed(fp32) ? Recommender.speedMs(fp32) : Double.NaN;
        List<DtypeRecommendation.Choice> qualified = new ArrayList<>();
        Map<Precision, String> why = new EnumMap<>(Precision.class);
        for (Precision p : variants) {
            RunResult r = here.get(p);
            String no = disqualified(r, min);
            if (no != null) {
                why.put(p, no);
            } else {
                qualified.add(choice(r, fp32Ms));
            }
        }
        qualified.sort(Comparator.comparingDouble(DtypeRecommendation.Choice::p50Ms));
        DtypeRecommendation.Choice best = qualified.isEmpty() ? null : qualified.get(0);
        List<DtypeRecommendation.Skipped> skipped = new ArrayList<>();
        for (DtypeRecommendation.Choice c : qualified.subList(Math.min(1, qualified.size()), qualified.size())) {
            why.put(c.precision(), String.format(Locale.ROOT, "slower than %s (%.3g ms)", best.precision().id(), c.p50Ms()));
        }
        for (Precision p : variants) {
            if (why.containsKey(p)) {
                skipped.add(new DtypeRecommendation.Skipped(p, why.get(p)));
            }
        }
        String host = any.provenance() == null || any.provenance().host() == null ? "?" : any.provenance().host();
        return new DtypeRecommendation(host, any.hostFingerprint(), any.suite().id(), any.model(), target, backend, min, best,
                fp32 != null && timed(fp32) && closeness(fp32).isPresent() ? choice(fp32, fp32Ms) : null, skipped);
    }

    /** Why {@code r} cannot be the answer, or null when it qualifies. */
    private static String disqualified(RunResult r, double min) {
        if (r == null) {
            return "not measured here";
        }
        if (!r.status().executed()) {
            return r.status() + (r.reason() == null ? "" : ": " + r.reason());
        }
        if (r.actual() != r.requested()) {
            return "fell back to " + (r.actual() == null ? "nothing" : r.actual().id()) + (r.reason() == null ? "" : ": " + r.reason());
        }
        if (r.variantParity() != null && !(r.variantParity().cosine() >= min)) {
            return String.format(Locale.ROOT, "wrong here: cosine %.4f to its own native CPU run, below %s (the backend, not the "
                    + "dtype)", r.variantParity().cosine(), min);
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
            return "its figures say nothing of its speed (floored or absent)";
        }
        return null;
    }

    private static DtypeRecommendation.Choice choice(RunResult r, double fp32Ms) {
        double ms = Recommender.speedMs(r);
        return new DtypeRecommendation.Choice(r.id().precision(), closeness(r).orElse(Double.NaN), closenessOf(r), ms,
                Double.isNaN(fp32Ms) ? Double.NaN : fp32Ms / ms);
    }

    private static boolean timed(RunResult r) {
        return r.timings() != null && r.timings().p50Ms() > 0 && !r.timings().quality().floored();
    }

    /**
     * What a user reads off the variant's outputs against fp32 native, from 0 to 1: a generation's share of generations whose
     * tokens are exactly fp32 native's; else a cosine: the readout's lowest (pooled sentence embeddings, a similarity matrix)
     * where the model has one, else the raw outputs'; empty when nothing was compared (a NaN cosine included: nothing to
     * read). The fp32 native CPU run itself is the reference (1).
     */
    static OptionalDouble closeness(RunResult r) {
        dev.accelbridge.core.Decoding d = r.timings() == null ? null : r.timings().decoding();
        if (d != null && d.generations() > 0) { // a generation's users read its tokens: the share of generations giving fp32's
            return d.check() == dev.accelbridge.core.TokenCheck.REFERENCE ? OptionalDouble.of(d.verified() / (double) d.generations())
                    : reference(r) ? OptionalDouble.of(1) : OptionalDouble.empty();
        }
        if (r.analysis() != null && r.analysis().readout() != null) {
            return OptionalDouble.of(r.analysis().readout().minCosine());
        }
        if (r.parity() != null) {
            return OptionalDouble.of(r.parity().cosine());
        }
        return reference(r) ? OptionalDouble.of(1) : OptionalDouble.empty();
    }

    /** The fp32 native CPU run itself: the reference every variant is read against. */
    private static boolean reference(RunResult r) {
        return r.id().isNativeCpu() && r.id().precision() == Precision.FP32 && r.status() == Status.PASSED;
    }

    private static String closenessOf(RunResult r) {
        if (r.timings() != null && r.timings().decoding() != null && r.timings().decoding().generations() > 0) {
            return "tokens";
        }
        return r.analysis() != null && r.analysis().readout() != null ? r.analysis().readout().kind().id() : "outputs";
    }
}
