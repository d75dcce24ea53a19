package dev.accelbridge.run;

import dev.accelbridge.core.VersionAxes;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendException;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Availability;
import dev.accelbridge.fallback.Resolver;

import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.ArrayDeque;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Queue;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/**
 * Runs one target's cases of a run, native or browser alike, on lanes its {@link LaneSource} opens: up to
 * {@code --parallel N} at once (as many as the source allows: one native process, a browser and page each), taking cases
 * from one queue, and re-running a FAILED case afresh up to {@code --retries} times. Every result goes to the
 * {@link LaneSink} as soon as it ends (one store transaction per case, whichever lane wrote it).
 */
final class LaneScheduler {
    private record Task(BackendId requested, ModelCase mc) {
    }

    private final RunPlan plan;
    private final CaseExecutor executor;
    private final HostInfo host;
    private final String runId;
    private final Map<String, String> runtimeVersions;
    private final LaneSink sink;

    LaneScheduler(RunPlan plan, CaseExecutor executor, HostInfo host, String runId, Map<String, String> runtimeVersions,
                     LaneSink sink) {
        this.plan = plan;
        this.executor = executor;
        this.host = host;
        this.runId = runId;
        this.runtimeVersions = runtimeVersions;
        this.sink = sink;
    }

    /**
     * Runs the cases of the lane {@code target} on {@code requested} backends not yet {@code done}.
     *
     * @param named every backend the run's chains name on this side, which a lane probes
     */
    void run(LaneSource lanes, LaneId target, List<ModelCase> cases, List<BackendId> requested, Set<CaseId> done,
             Map<ModelCase, Reference> references, Collection<BackendId> named) {
        LaneId expected = lanes.expected(target);
        List<Task> tasks = tasks(cases, requested, done, expected);
        if (tasks.isEmpty()) {
            return;
        }
        int n = Math.max(1, Math.min(plan.targets().parallel(), Math.min(tasks.size(), lanes.maxLanes())));
        sink.info((lanes.warm(target) ? "reusing " : "starting ") + expected.key() + " (" + lanes.driver(target) + (n > 1 ? ", " + n + " lanes" : "") + ")");
        Optional<Lane> opened = openFirst(lanes, target, named, expected, tasks);
        if (opened.isEmpty()) {
            return;
        }
        Lane first = opened.get();
        first.probes().values().forEach(sink::probe);
        // the versions that really run (a launched browser's build, the onnxruntime-web its page loaded; a page that joined
        // by hand names itself by its user agent)
        LaneId laneId = first.id().withVersionsOf(target);
        Queue<Task> queue = new ConcurrentLinkedQueue<>(plan.targets().remeasureFallbacks() ? tasks : sharing(tasks, first.probes(), laneId));
        if (n == 1) {
            work(first, laneId, queue, references);
            lanes.release(target, first);
            return;
        }
        runParallel(lanes, target, named, n, first, laneId, queue, references);
    }

    /** The cases not yet {@code done}, backend by backend, each once. */
    private static List<Task> tasks(List<ModelCase> cases, List<BackendId> requested, Set<CaseId> done, LaneId expected) {
        List<Task> tasks = new ArrayList<>();
        Set<CaseId> planned = new java.util.HashSet<>();
        for (BackendId backend : requested) {
            for (ModelCase mc : cases) {
                // a session option that does not apply to the backend leaves the case the same one: run once
                CaseId id = CaseId.of(mc, backend, expected);
                if (!done.contains(id) && planned.add(id)) {
                    tasks.add(new Task(backend, mc));
                }
            }
        }
        return tasks;
    }

    /**
     * The lane's tasks in the order they run when a fallback's work is measured once ({@link SharedMeasurements}): each
     * fallback whose chain lands (by the probes) on a backend the lane runs the same case on, right after that case, which
     * the lane's measurements then expect (or where it was, when that case was measured before the lane's: a native
     * reference); the others as they were.
     */
    private List<Task> sharing(List<Task> tasks, Map<BackendId, Availability> probes, LaneId laneId) {
        Map<CaseId, Task> measuring = new HashMap<>();
        tasks.forEach(t -> measuring.put(CaseId.of(t.mc(), t.requested(), laneId), t));
        Map<Task, List<Task>> readers = new HashMap<>();
        List<Task> own = new ArrayList<>();
        for (Task t : tasks) {
            CaseId lands = Resolver.resolve(plan.targets().chainOf(t.requested()), probes).chosen()
                    .filter(hop -> hop != t.requested()).map(hop -> CaseId.of(t.mc(), hop, laneId)).orElse(null);
            Task m = lands == null ? null : measuring.get(lands);
            if (m != null) {
                readers.computeIfAbsent(m, k -> new ArrayList<>()).add(t);
                continue;
            }
            if (lands != null && executor.measurements().holds(lands)) {
                executor.measurements().expect(lands, 1); // measured before the lane's cases (a native reference)
            }
            own.add(t);
        }
        List<Task> out = new ArrayList<>(tasks.size());
        for (Task t : own) {
            out.add(t);
            List<Task> r = readers.getOrDefault(t, List.of());
            if (!r.isEmpty()) {
                executor.measurements().expect(CaseId.of(t.mc(), t.requested(), laneId), r.size());
                out.addAll(r);
            }
        }
        return out;
    }

    /**
     * The target's first lane, or none when it cannot be opened. What the lane needs (a browser, its onnxruntime-web, an
     * ONNX Runtime version) is missing, cannot run here, or would not start: every case of it says so, and the run goes on.
     */
    private Optional<Lane> openFirst(LaneSource lanes, LaneId target, Collection<BackendId> named, LaneId expected, List<Task> tasks) {
        try {
            return Optional.of(open(lanes, target, named));
        } catch (AccelbridgeException e) {
            HostInfo at = e instanceof RemoteUnavailable r ? r.remote() : host; // a remote's are the remote's
            if (at != host) {
                sink.host(at);
            }
            sink.cannotOpen(runId, tasks.stream().map(t -> CaseId.of(t.mc(), t.requested(), expected)).toList(), e,
                    Provenance.of(target.browserId(), null, lanes.driver(target), null, null, List.of(),
                            VersionAxes.recorded(runtimeVersions, target)).withHost(at));
            return Optional.empty();
        }
    }

    /**
     * {@code n} lanes on one queue: the first on this thread, the others each on a thread of its own, opened there (one
     * that does not start leaves its cases to the others). The first failure of another lane is the target's.
     */
    private void runParallel(LaneSource lanes, LaneId target, Collection<BackendId> named, int n, Lane first, LaneId laneId,
                             Queue<Task> queue, Map<ModelCase, Reference> references) {
        ExecutorService pool = Executors.newFixedThreadPool(n - 1, r -> {
            Thread t = new Thread(r, "accelbridge-lane-" + target.key());
            t.setDaemon(true);
            return t;
        });
        try {
            List<Future<?>> others = new ArrayList<>();
            for (int i = 2; i <= n; i++) {
                int lane = i;
                others.add(pool.submit(() -> {
                    Lane l;
                    try {
                        l = lanes.open(target, named);
                    } catch (AccelbridgeException e) {
                        sink.info(target.key() + " lane " + lane + " did not start (" + e.oneLine() + "); the other lanes take its cases");
                        return;
                    }
                    work(l, laneId, queue, references);
                    lanes.release(target, l);
                }));
            }
            work(first, laneId, queue, references);
            lanes.release(target, first);
            awaitAll(others);
        } finally {
            pool.shutdownNow();
        }
    }

    /** Waits for every other lane, in order; a lane's failure is thrown as it was. */
    private static void awaitAll(List<Future<?>> others) {
        for (Future<?> f : others) {
            try {
                f.get();
            } catch (ExecutionException e) {
                throw e.getCause() instanceof RuntimeException re ? re : new IllegalStateException(e.getCause());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while the lanes ran", e);
            }
        }
    }

    /**
     * Opens a lane, and again while it would not start and {@code --retries} are left: a browser that did not reach the
     * bridge in time on a busy machine fails every case of its lane, which a retry of each case would not mend; so does a
     * remote's browser whose page did not join. What cannot be had or run here (a {@link BackendException} of another
     * status, a remote that gave no browser) is not tried again.
     */
    private Lane open(LaneSource lanes, LaneId target, Collection<BackendId> named) {
        int retries = plan.limits().retries();
        for (int attempt = 1; ; attempt++) {
            try {
                return lanes.open(target, named);
            } catch (AccelbridgeException e) {
                boolean again = e instanceof RemoteUnavailable r ? r.mayStartAgain()
                        : !(e instanceof BackendException be) || be.status() == Status.FAILED;
                if (!again || attempt > retries) {
                    throw e;
                }
                sink.info(target.key() + " did not start (" + e.oneLine() + "); starting it again (attempt " + (attempt + 1)
                        + " of " + (retries + 1) + ")");
            }
        }
    }

    /**
     * How many cases past the one running a lane takes from the queue and tells its provider about: a page's round trip
     * costs 6-7 ms here against 1.5-2 ms of a one-op case's own work, so a page kept busy needs about three in flight.
     */
    static final int LOOK_AHEAD = 3;

    /** One lane takes cases from the queue until it is empty. */
    private void work(Lane lane, LaneId laneId, Queue<Task> queue, Map<ModelCase, Reference> references) {
        CaseContext ctx = new CaseContext(runId, lane.host().orElse(host), lane.provenance(), laneId);
        lane.host().ifPresent(h -> {
            sink.info(laneId.key() + " runs on " + h.hostname() + (h.os() == null ? "" : " (" + h.os() + ")") + "; its outputs are checked against "
                    + "this host's native CPU run");
            sink.host(h);
        });
        // the lane's next cases, told to its provider before the case in front of them runs (it may send them ahead)
        ArrayDeque<Task> window = new ArrayDeque<>();
        for (Task t = queue.poll(); t != null; t = window.poll()) {
            Task task = t;
            for (Task n; window.size() < LOOK_AHEAD && (n = queue.poll()) != null; ) {
                window.add(n);
                executor.hint(ctx, n.mc(), plan.targets().chainOf(n.requested()), lane.probes(), lane.providers());
            }
            Reference ref = lane.host().isPresent() ? references.get(task.mc()).fromHost(host.hostname()) : references.get(task.mc());
            RunResult r;
            try {
                r = Retries.run(plan.limits().retries(), () -> executor.run(ctx, task.mc(),
                        plan.targets().chainOf(task.requested()), lane.probes(), lane.providers(), ref).result(), lane.renew(), sink::info);
            } finally {
                executor.measurements().ended(CaseId.of(task.mc(), task.requested(), laneId));
            }
            sink.emit(sink.bisected(r, task.mc(), lane.providers()));
        }
    }
}
