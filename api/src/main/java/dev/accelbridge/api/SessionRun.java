package dev.accelbridge.api;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.recommend.DtypeRecommendation;
import dev.accelbridge.reports.recommend.DtypeRecommender;
import dev.accelbridge.run.RunAccount;
import dev.accelbridge.run.RunSummary;

import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * One finished run of a session.
 *
 * @param runId   its id in the store ({@code accelbridge report --run RUN_ID})
 * @param store   the store it is in
 * @param results every case, in the order they finished, each with its native CPU counterpart
 * @param wallMs  how long the run took
 * @param account where its wall time went ({@link RunAccount})
 */
public record SessionRun(String runId, Path store, List<CaseResult> results, double wallMs, RunAccount account) {
    public SessionRun {
        results = List.copyOf(results);
    }

    /** The results of a run, each paired with the native CPU result of the same model, inputs, precision and batch. */
    static SessionRun of(RunSummary s, Path store, RunAccount account) {
        Map<String, RunResult> nativeCpu = new HashMap<>();
        for (RunResult r : s.results()) {
            if (r.id().isNativeCpu()) {
                nativeCpu.put(r.id().inputKey(), r);
            }
        }
        return new SessionRun(s.runId(), store, s.results().stream()
                .map(r -> new CaseResult(r, Optional.ofNullable(nativeCpu.get(r.id().inputKey())))).toList(), s.wallMs(), account);
    }

    /** The results requested on {@code backend} (in every lane: each browser for a browser backend). */
    public List<CaseResult> on(BackendId backend) {
        return results.stream().filter(r -> r.requested() == backend).toList();
    }

    /** The results requested on {@code backend} in {@code lane}, or any version of it where {@code lane} names none ({@link LaneId#covers}). */
    public List<CaseResult> on(BackendId backend, LaneId lane) {
        return results.stream().filter(r -> r.requested() == backend && lane.covers(r.id().lane())).toList();
    }

    /** The results of one status. */
    public List<CaseResult> withStatus(Status status) {
        return results.stream().filter(r -> r.status() == status).toList();
    }

    /**
     * Which dtype variant of each model to ship to each backend and lane, from this run's results: the fastest with no
     * defect whose user-visible output is at least {@code minCloseness} (a cosine) to fp32 run natively on the CPU, where its
     * interval says it is faster than fp32 ({@link dev.accelbridge.reports.recommend.DtypeRecommender}); only models run in
     * more than one dtype. Each result says a variant's verdict and its fidelity ({@code result().fidelity()}).
     */
    public List<DtypeRecommendation> dtypes(double minCloseness) {
        return DtypeRecommender.recommend(results.stream().map(CaseResult::result).toList(), minCloseness);
    }
}
