package dev.accelbridge.reports.recommend;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Decoding;
import dev.accelbridge.core.Interval;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.SampleStats;
import dev.accelbridge.core.SpeedStanding;
import dev.accelbridge.core.Status;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * Recommendations from measured results. Pure. For each group (host, family or model, precision) and each deployment
 * target measured in it (native, each browser), a candidate is a backend of that target that PASSED on the requested
 * backend itself (no fallback) for every model of the group that has a native CPU reference on that host; candidates are
 * ranked by the geometric mean of their speedup over native CPU (and, in a browser, compared with wasm there). A target
 * where no candidate qualifies says "not measured" (or what is missing); nothing is ever estimated here.
 */
@PublicApi
public final class Recommender {
    private Recommender() {
    }

    /**
     * @param results  the results to learn from (e.g. the newest result of every cell)
     * @param perModel one group per model instead of per family
     */
    public static List<Recommendation> recommend(List<RunResult> results, boolean perModel) {
        Map<List<Object>, List<RunResult>> groups = new LinkedHashMap<>();
        Map<String, String> hostNames = new LinkedHashMap<>();
        for (RunResult r : results) {
            String fp = r.hostFingerprint();
            hostNames.putIfAbsent(fp, r.provenance() == null || r.provenance().host() == null ? "?" : r.provenance().host());
            List<Object> key = List.of(String.valueOf(fp), r.suite().id(), perModel ? r.model() : "", r.id().precision());
            groups.computeIfAbsent(key, k -> new ArrayList<>()).add(r);
        }
        List<Recommendation> out = new ArrayList<>();
        for (Map.Entry<List<Object>, List<RunResult>> g : groups.entrySet()) {
            String fp = (String) g.getKey().get(0);
            String family = (String) g.getKey().get(1);
            String model = perModel ? (String) g.getKey().get(2) : null;
            Precision precision = (Precision) g.getKey().get(3);
            out.addAll(recommendGroup(family, model, hostNames.get(fp), fp, precision, g.getValue()));
        }
        out.sort(Comparator.comparing(Recommendation::host).thenComparing(Recommendation::family)
                .thenComparing(r -> r.model() == null ? "" : r.model()).thenComparing(Recommendation::precision)
                .thenComparing(r -> r.target().equals(NATIVE) ? "" : r.target()));
        return out;
    }

    private static final String NATIVE = LaneId.NATIVE.id();

    /**
     * The figure a result is ranked by: its p50, or for a generation the time of a token after the first (1000 / tokens per
     * second, MLPerf Client's mean inter-token latency), so the text-generation family is ranked by tokens per second.
     */
    static double speedMs(RunResult r) {
        return r.timings().map(t -> t.figures() instanceof Decoding d && Double.isFinite(d.tokensPerSec())
                ? 1000 / d.tokensPerSec() : t.p50Ms()).orElse(Double.NaN);
    }

    /** The samples behind {@link #speedMs}: a generation's inter-token latencies, else the timed samples; none untimed. */
    static double[] speedSamples(RunResult r) {
        return r.timings().map(t -> t.figures() instanceof Decoding d && Double.isFinite(d.tokensPerSec())
                ? d.itlMs() : t.samplesMs()).orElse(new double[0]);
    }

    /** The native CPU reference of each model (input key) in a group: its figure and the samples behind it. */
    private record Reference(Map<String, Double> speed, Map<String, double[]> samples) {
    }

    private static List<Recommendation> recommendGroup(String family, String model, String host, String fp, Precision precision,
                                                       List<RunResult> rs) {
        Set<String> targets = new java.util.TreeSet<>();
        rs.forEach(r -> targets.add(r.lane().id()));
        Reference cpu = cpuReference(rs);
        if (cpu.speed().isEmpty()) {
            return targets.stream().map(t -> new Recommendation(family, model, host, fp, precision, t, null, null,
                    "not measured: no native CPU reference for these models on this host")).toList();
        }
        Map<List<String>, Map<String, RunResult>> byCandidate = candidates(rs, cpu.speed());
        List<Recommendation.Option> options = new ArrayList<>();
        Set<String> models = new LinkedHashSet<>(cpu.speed().keySet());
        for (Map.Entry<List<String>, Map<String, RunResult>> c : byCandidate.entrySet()) {
            if (!c.getValue().keySet().containsAll(models)) {
                continue; // it did not pass on every model of the group: not a recommendation for the group
            }
            options.add(option(c.getKey(), c.getValue(), models, cpu, byCandidate));
        }
        options.sort(Comparator.comparingDouble(Recommendation.Option::speedupVsCpu).reversed()
                .thenComparing(o -> Objects.toString(o.browser(), "")));
        return perTarget(family, model, host, fp, precision, targets, options);
    }

    /** Each model's native CPU reference: an executed native CPU result that ran there with a positive p50. */
    private static Reference cpuReference(List<RunResult> rs) {
        Map<String, Double> cpu = new LinkedHashMap<>();
        Map<String, double[]> cpuSamples = new LinkedHashMap<>();
        for (RunResult r : rs) {
            if (r.id().isNativeCpu() && r.ranOnNativeCpu() && r.status().executed()
                    && r.outcome() instanceof Outcome.Ran ran && ran.timings().p50Ms() > 0) {
                cpu.put(r.id().inputKey(), speedMs(r));
                cpuSamples.put(r.id().inputKey(), speedSamples(r));
            }
        }
        return new Reference(cpu, cpuSamples);
    }

    /**
     * The candidates: (backend, lane) → model → result, of the results that PASSED on the requested backend itself with a
     * model that has a reference.
     */
    private static Map<List<String>, Map<String, RunResult>> candidates(List<RunResult> rs, Map<String, Double> cpu) {
        Map<List<String>, Map<String, RunResult>> byCandidate = new LinkedHashMap<>();
        for (RunResult r : rs) {
            // a figure that does not stand as a speed (a software adapter's, a floored one) is never a candidate
            // the candidates are results that ran on the backend asked for and were timed: each counted by its kind
            if (r.status() == Status.PASSED && r.outcome() instanceof Outcome.Ran ran && ran.backend() == r.requested()
                    && SpeedStanding.of(r).counts() && ran.timings().p50Ms() > 0 && cpu.containsKey(r.id().inputKey())) {
                byCandidate.computeIfAbsent(List.of(ran.backend().id(), r.lane().id()), k -> new LinkedHashMap<>())
                        .put(r.id().inputKey(), r);
            }
        }
        return byCandidate;
    }

    /**
     * One candidate that passed on every model, as an option: geometric means over the models of its figure, its speed-up
     * over native CPU and over wasm on its lane (only when wasm passed on every model there), its peak RSS and its best
     * offline throughput.
     *
     * @param key     (backend, lane)
     * @param byModel the candidate's result for each model
     */
    private static Recommendation.Option option(List<String> key, Map<String, RunResult> byModel, Set<String> models,
                                                Reference cpu, Map<List<String>, Map<String, RunResult>> byCandidate) {
        double logP50 = 0;
        double logSpeed = 0;
        double logWasm = 0;
        int wasmN = 0;
        long rss = -1;
        List<double[]> ownSide = new ArrayList<>();
        List<double[]> cpuSide = new ArrayList<>();
        Map<String, Double> bestItems = new LinkedHashMap<>();
        Map<String, Integer> bestBatch = new LinkedHashMap<>();
        for (String m : models) {
            RunResult r = byModel.get(m);
            double p = speedMs(r);
            ownSide.add(speedSamples(r));
            cpuSide.add(cpu.samples().get(m));
            double items = r.id().batchSize() * 1000.0 / p;
            if (items > bestItems.getOrDefault(r.model(), 0.0)) {
                bestItems.put(r.model(), items);
                bestBatch.put(r.model(), r.id().batchSize());
            }
            logP50 += Math.log(p);
            logSpeed += Math.log(cpu.speed().get(m) / p);
            rss = Math.max(rss, r.memory().rssPeak());
            RunResult wasm = byCandidate.getOrDefault(List.of(BackendId.WASM.id(), key.get(1)), Map.of()).get(m);
            if (wasm != null) {
                logWasm += Math.log(speedMs(wasm) / p);
                wasmN++;
            }
        }
        int n = models.size();
        String lane = key.get(1);
        // the speed-up (native CPU p50 over this backend's) and its interval: this backend's samples as the base
        Interval ci = SampleStats.geomeanRatioCi(ownSide, cpuSide);
        double offline = Math.exp(bestItems.values().stream().mapToDouble(Math::log).average().orElse(Double.NaN));
        return new Recommendation.Option(key.get(0), lane.equals("native") ? null : lane, Math.exp(logP50 / n),
                Math.exp(logSpeed / n), wasmN == n ? Math.exp(logWasm / n) : Double.NaN, rss, n, ci, offline,
                bestBatch.values().stream().mapToInt(Integer::intValue).max().orElse(0));
    }

    /** One recommendation per target: its best two options (ranked already), or why it has none. */
    private static List<Recommendation> perTarget(String family, String model, String host, String fp, Precision precision,
                                                  Set<String> targets, List<Recommendation.Option> options) {
        List<Recommendation> out = new ArrayList<>();
        for (String target : targets) {
            List<Recommendation.Option> here = options.stream()
                    .filter(o -> target.equals(o.browser() == null ? NATIVE : o.browser())).toList();
            out.add(here.isEmpty()
                    ? new Recommendation(family, model, host, fp, precision, target, null, null,
                    "not measured: no backend passed on every model of the group " + (target.equals(NATIVE) ? "natively" : "in " + target))
                    : new Recommendation(family, model, host, fp, precision, target, here.get(0), here.size() > 1 ? here.get(1) : null, null));
        }
        return out;
    }
}
