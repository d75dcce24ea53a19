package dev.accelbridge.bisect;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.api.AccelbridgeSession;
import dev.accelbridge.api.CaseResult;
import dev.accelbridge.api.RunRequest;
import dev.accelbridge.api.SessionRun;
import dev.accelbridge.run.ModelSet;
import dev.accelbridge.run.RunPlan;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Interval;
import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.SampleStats;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.VersionAxis;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Supplier;

/**
 * Version bisection ({@code accelbridge bisect-versions}), in the manner of Chromium's {@code bisect-builds.py} and
 * mozregression but for a runtime, on the user's own model, against the native reference: runs the model at both ends
 * of a version range to confirm that the verdict (its status; with {@code perf}, also its p50 beyond its interval)
 * changes, then binary-searches the versions between to the last one whose verdict is the first end's and the first one
 * whose is not. Every version's case is stored in one run (each step continues it). A version that cannot be had or run
 * here at all (UNAVAILABLE) is skipped, as {@code git bisect skip} would. The first version that differs keeps its case's
 * node bisection when its output is wrong; {@link VersionRepros} writes the repro folder.
 */
@PublicApi
public final class VersionBisector {
    /**
     * One version's case.
     *
     * @param version the version
     * @param result  its result
     */
    public record Probe(String version, RunResult result) {
    }

    /**
     * What the bisection found.
     *
     * @param axis      what was bisected
     * @param versions  the versions walked, the first end first
     * @param probes    every version run, in the order run
     * @param lastGood  the last version whose verdict is the first end's
     * @param firstBad  the first whose is not; null when both ends agree (nothing changed)
     * @param runId     the run every probe is stored in
     * @param skipped   versions that could not run here (UNAVAILABLE), left out of the search
     */
    public record Outcome(VersionAxis axis, List<String> versions, List<Probe> probes, Probe lastGood, Probe firstBad, String runId,
                          List<Probe> skipped) {
        /** True when the two ends' verdicts differ. */
        public boolean changed() {
            return firstBad != null;
        }
    }

    private final AccelbridgeSession session;
    private final Supplier<RunPlan.Builder> base;
    private final ModelSet models;
    private final BackendId backend;
    private final VersionRange range;
    private final boolean perf;
    private final double threshold;
    private final Consumer<String> info;

    /**
     * @param base    a fresh builder of the plan every version runs (the model's suite or folder, the backend, sampling)
     * @param models  the model, loaded once
     * @param range   the axis bisected and the lane every step runs in
     * @param perf    also a p50 beyond its interval (a change over {@code threshold}) counts as a change
     */
    public VersionBisector(AccelbridgeSession session, Supplier<RunPlan.Builder> base, ModelSet models, BackendId backend,
                           VersionRange range, boolean perf, double threshold, Consumer<String> info) {
        this.session = session;
        this.base = base;
        this.models = models;
        this.backend = backend;
        this.range = range;
        this.perf = perf;
        this.threshold = threshold;
        this.info = info;
    }

    /**
     * Bisects {@code versions} (the first end first).
     *
     * @throws AccelbridgeException when an end cannot run here, so there is nothing to compare
     */
    public Outcome bisect(List<String> versions, String label) {
        VersionAxis axis = range.axis();
        List<String> vs = new ArrayList<>(versions);
        List<Probe> probes = new ArrayList<>();
        List<Probe> skipped = new ArrayList<>();
        String[] run = {null};
        java.util.function.Function<String, Probe> probe = v -> {
            Probe p = run(axis, v, run, label);
            probes.add(p);
            info.accept(axis.subject() + " " + v + ": " + describe(p.result()));
            return p;
        };
        Probe good = probe.apply(vs.get(0));
        Probe bad = probe.apply(vs.get(vs.size() - 1));
        for (Probe end : List.of(good, bad)) {
            if (end.result().status() == Status.UNAVAILABLE) {
                throw new AccelbridgeException(axis.subject() + " " + end.version() + " cannot run here: " + end.result().reason(),
                        "pick an end that runs on this machine");
            }
        }
        if (same(good, bad)) {
            return new Outcome(axis, versions, probes, bad, null, run[0], skipped);
        }
        int lo = 0;
        int hi = vs.size() - 1;
        while (hi - lo > 1) {
            int mid = (lo + hi) >>> 1;
            Probe p = probe.apply(vs.get(mid));
            if (p.result().status() == Status.UNAVAILABLE) {
                skipped.add(p); // cannot tell: leave it out and look again between the same two
                vs.remove(mid);
                hi--;
                continue;
            }
            if (same(good, p)) {
                lo = mid; // the first end's result stays the one every other is judged against
            } else {
                hi = mid;
            }
        }
        Probe last = find(probes, vs.get(lo));
        Probe first = find(probes, vs.get(hi));
        return new Outcome(axis, versions, probes, last, first, run[0], skipped);
    }

    /** The model's case at {@code version}, its run continuing the bisection's. */
    private Probe run(VersionAxis axis, String version, String[] runId, String label) {
        RunPlan plan = range.at(base.get(), version).build();
        SessionRun r = session.run(RunRequest.builder().setPlan(plan).optModels(models).optLabel(label).optContinueOf(runId[0]).build());
        runId[0] = r.runId();
        return r.results().stream().map(CaseResult::result)
                .filter(x -> x.requested() == backend && version.equals(axis.dimension().text(x.id())))
                .findFirst().map(x -> new Probe(version, x))
                .orElseGet(() -> r.results().stream().map(CaseResult::result).filter(x -> x.requested() == backend).findFirst()
                        .map(x -> new Probe(version, x.withStatus(Status.UNAVAILABLE, "the case ran at " + axis.dimension().text(x.id())
                                + ", not " + version + ": " + x.reason())))
                        .orElseThrow(() -> new AccelbridgeException("The run at " + axis.subject() + " " + version + " has no case on "
                                + backend, "check the model and backend")));
    }

    /**
     * The same verdict: the same status, the same placement where it was checked (a pass on the CPU EP is its own verdict,
     * as in the op table) and, with {@code perf}, no p50 change beyond its interval.
     */
    private boolean same(Probe a, Probe b) {
        if (a.result().status() != b.result().status() || onCpu(a.result()) != onCpu(b.result())) {
            return false;
        }
        // a speed is compared only between two runs on the same backend, each timed: read by their kind
        if (!perf || !(a.result().outcome() instanceof dev.accelbridge.core.Outcome.Ran ra)
                || !(b.result().outcome() instanceof dev.accelbridge.core.Outcome.Ran rb)
                || ra.backend() != rb.backend()) {
            return true;
        }
        double ratio = rb.timings().p50Ms() / ra.timings().p50Ms();
        Interval ci = SampleStats.ratioCi(ra.timings().samplesMs(), rb.timings().samplesMs());
        return !SampleStats.significant(ratio, ci, threshold);
    }

    private static Probe find(List<Probe> probes, String version) {
        return probes.stream().filter(p -> p.version().equals(version)).findFirst().orElseThrow();
    }

    private static boolean onCpu(RunResult r) {
        return r.analysis().placement() != null && !r.analysis().placement().onRequested();
    }

    /** {@code PASSED, p50 1.2 ms} / {@code PASSED (placed on CPU)} / {@code UNSUPPORTED: why}. */
    public static String describe(RunResult r) {
        String p50 = !r.status().executed() ? "" : r.timings().map(t -> String.format(java.util.Locale.ROOT, ", p50 %.3f ms", t.p50Ms())).orElse("");
        String on = r.actual().filter(b -> r.ranElsewhere()).map(b -> " on " + b.id()).orElse("");
        return r.status() + (onCpu(r) ? " (placed on CPU)" : "") + on + p50
                + (r.reason() == null || r.status() == Status.PASSED ? "" : ": " + r.reason());
    }

    /** Where the repro folders go under {@code out}. */
    public static Path reproRoot(Path out) {
        return out.resolve("version-repro");
    }
}
