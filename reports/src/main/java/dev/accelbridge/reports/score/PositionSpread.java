package dev.accelbridge.reports.score;

import dev.accelbridge.core.Interval;
import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Timings;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The same work measured more than once in one run, whose figures disagree by more than their intervals allow: a figure
 * that depends on where its case fell in the run. Copies show what a case's own interval cannot: measured in the default
 * matrix here when every backend that fell back to wasm ran its lane's wasm case again, Chromium's wasm bert-mini 0.58,
 * 0.51, 0.56 and 0.36 ms with intervals about 1 % wide. Such fallbacks now share the wasm case's one measurement
 * ({@link RunResult#figuresOf()}), which is no copy; copies remain where the same model runs under two names or
 * {@code --remeasure-fallbacks} runs the work again.
 *
 * <p>Same work: the same model bytes (under any name), input, precision, batch and scenario on the same backend (the one
 * that ran) with the same session options, in the same lane on the same host in the same run, with the same threads. A
 * sweep of session options is many works, never copies of one. Flagged when the copies' p50 intervals do not all overlap AND
 * the slowest p50 is more than {@link #MIN_RATIO} the fastest; a reader then takes {@code [fastest, slowest]} as the
 * figure's uncertainty, not one copy's interval (docs/scoring.md, "Where a case falls in its run").
 *
 * @param runId  the run
 * @param work   the work's key (the case key with the backend that ran)
 * @param copies the copies, in the order they ran
 * @param lowMs  the fastest copy's p50
 * @param highMs the slowest copy's p50
 */
@PublicApi
public record PositionSpread(String runId, String work, List<RunResult> copies, double lowMs, double highMs) {
    /** Copies within this ratio of each other are one figure, whatever their intervals say. */
    public static final double MIN_RATIO = 1.10;

    public PositionSpread {
        copies = List.copyOf(copies);
    }

    /** Slowest over fastest. */
    public double ratio() {
        return highMs / lowMs;
    }

    /** The spreads among {@code results} (any runs, hosts and lanes), largest ratio first. */
    public static List<PositionSpread> of(Collection<RunResult> results) {
        Map<String, List<RunResult>> byWork = new LinkedHashMap<>();
        for (RunResult r : results) {
            // figures another cell measured are that cell's, not a copy of its work; a copy ran and was timed
            if (!(r.outcome() instanceof Outcome.Ran ran) || r.sharedFigures()) {
                continue;
            }
            Timings t = ran.timings();
            if (!(t.p50Ms() > 0) || t.quality() == null
                    || t.quality().p50Ci() == null) {
                continue;
            }
            byWork.computeIfAbsent(r.runId() + "|" + r.hostFingerprint() + "|" + work(r) + "|"
                    + (r.provenance() == null ? null : r.provenance().threads()), k -> new ArrayList<>()).add(r);
        }
        List<PositionSpread> out = new ArrayList<>();
        for (List<RunResult> copies : byWork.values()) {
            if (copies.size() < 2) {
                continue;
            }
            copies.sort(Comparator.comparing(RunResult::startedAt));
            double low = Double.POSITIVE_INFINITY;
            double high = 0;
            double highestLo = 0;
            double lowestHi = Double.POSITIVE_INFINITY;
            for (RunResult r : copies) {
                // each copy was kept for its timings (above): read by its kind
                if (!(r.outcome() instanceof Outcome.Ran ran)) {
                    continue;
                }
                Interval ci = ran.timings().quality().p50Ci();
                low = Math.min(low, ran.timings().p50Ms());
                high = Math.max(high, ran.timings().p50Ms());
                highestLo = Math.max(highestLo, ci.lo());
                lowestHi = Math.min(lowestHi, ci.hi());
            }
            if (highestLo > lowestHi && high > MIN_RATIO * low) {
                out.add(new PositionSpread(copies.get(0).runId(), work(copies.get(0)), copies, low, high));
            }
        }
        out.sort(Comparator.comparingDouble(PositionSpread::ratio).reversed());
        return out;
    }

    /**
     * What makes two results the same work: the model's bytes (not its name: the same file under two names is one
     * model), its input, precision and batch, its scenario, the backend that ran, the session options and the lane
     * ("sha12/inputSet[shapes]/fp32/b1/single-pass/wasm/default/lane").
     */
    public static String work(RunResult r) {
        var id = r.id();
        String sha = id.modelSha256() == null ? id.model() : id.modelSha256();
        return sha.substring(0, Math.min(12, sha.length())) + "/" + id.inputSet() + "[" + id.inputShapes() + "]/"
                + id.precision().id() + "/b" + id.batchSize() + "/" + id.scenario().id() + "/" + r.actual().map(b -> b.id()).orElse("nowhere") + "/"
                + id.runtimeOptions().id() + "/" + id.lane().key();
    }
}
