package dev.accelbridge.tools.dashboard;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.render.JsonRenderer;
import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.reports.store.ResultJson;
import dev.accelbridge.reports.store.RunInfo;
import io.javalin.http.sse.SseClient;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Runs in progress, streamed to the dashboard as server-sent events ({@code GET /api/live}). It watches the store, not a
 * process: a run started from the page, from {@code accelbridge run} in another terminal or by CI against the same store
 * streams alike, since each case is written to the store as it finishes. While a page listens, the store is polled
 * (default once a second); each new case is sent as a {@code case} event (the one JSON form of a result, with its
 * {@code runId}) and the run's counts as a {@code progress} event: cases done of the planned total, and per lane
 * (native, each browser) done, total and counts by status. A run that ends gets a last {@code progress} with its status.
 */
public final class LiveFeed implements AutoCloseable {
    private static final Logger LOG = LoggerFactory.getLogger(LiveFeed.class);
    private final MatrixStore store;
    private final List<SseClient> clients = new CopyOnWriteArrayList<>();
    private final Map<String, Integer> sent = new ConcurrentHashMap<>();
    private final Map<String, ObjectNode> lastProgress = new ConcurrentHashMap<>();
    private final ScheduledExecutorService poller;

    /**
     * @param store  the store watched
     * @param period how often it is read while a page listens
     */
    public LiveFeed(MatrixStore store, Duration period) {
        this.store = store;
        this.poller = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "accelbridge-live-feed");
            t.setDaemon(true);
            return t;
        });
        poller.scheduleWithFixedDelay(this::pollSafely, period.toMillis(), period.toMillis(), TimeUnit.MILLISECONDS);
    }

    /** A page starts listening: it gets the progress of every run in progress at once, then every change. */
    public void join(SseClient client) {
        client.keepAlive();
        client.onClose(() -> clients.remove(client));
        clients.add(client);
        lastProgress.values().forEach(p -> client.sendEvent("progress", p.toString()));
        client.sendComment("joined");
    }

    /** Pages listening now. */
    public int listeners() {
        return clients.size();
    }

    private void pollSafely() {
        if (clients.isEmpty()) {
            return;
        }
        try {
            poll();
        } catch (RuntimeException e) {
            // the store may be briefly held by a run past the lock wait; the next poll reads it
            LOG.debug("live feed poll failed: {}", e.toString());
        }
    }

    /** One look at the store: new cases and progress of every live run, and the end of runs that stopped. */
    void poll() {
        List<RunInfo> live = store.liveRuns();
        Set<String> ids = new java.util.LinkedHashSet<>();
        live.forEach(r -> ids.add(r.runId()));
        ids.addAll(sent.keySet());
        for (String id : ids) {
            RunInfo info = store.run(id).orElse(null);
            if (info == null) {
                sent.remove(id);
                lastProgress.remove(id);
                continue;
            }
            boolean running = live.stream().anyMatch(r -> r.runId().equals(id));
            List<RunResult> results = store.results(id);
            int from = sent.getOrDefault(id, 0);
            if (results.size() > from) {
                ArrayNode json = JsonRenderer.results(results);
                for (int i = from; i < results.size(); i++) {
                    ObjectNode c = (ObjectNode) json.get(i);
                    broadcast("case", c.toString());
                }
            }
            ObjectNode progress = progress(info, results, running, running ? store.caseProgress(id).orElse(null) : null);
            broadcast("progress", progress.toString());
            if (running) {
                sent.put(id, results.size());
                lastProgress.put(id, progress);
            } else {
                sent.remove(id);
                lastProgress.remove(id);
            }
        }
    }

    /** A run's progress: done of total, and per lane. */
    static ObjectNode progress(RunInfo info, List<RunResult> results, boolean running) {
        return progress(info, results, running, null);
    }

    /**
     * Same, with where the running cases are ({@code inCase}: the JSON array the run records beside its lock, one entry
     * per lane and case with its phase, done and total), given to each lane as {@code now}: "timed run 3 of 10", "timed 800 runs (at least 10, 0.5 s)".
     */
    static ObjectNode progress(RunInfo info, List<RunResult> results, boolean running, String inCase) {
        ObjectNode o = ResultJson.MAPPER.createObjectNode();
        o.put("runId", info.runId()).put("status", running ? "running" : info.status().name().toLowerCase(java.util.Locale.ROOT))
                .put("startedAt", info.startedAt().toString()).put("done", results.size()).put("total", info.plannedCases());
        Map<String, Integer> totals = info.plannedLanes();
        Map<String, Map<String, Integer>> byLane = new LinkedHashMap<>();
        totals.keySet().forEach(l -> byLane.put(l, new java.util.TreeMap<>()));
        for (RunResult r : results) {
            byLane.computeIfAbsent(r.id().lane().id(), l -> new java.util.TreeMap<>()).merge(r.status().name(), 1, Integer::sum);
        }
        ArrayNode lanes = o.putArray("lanes");
        for (var e : byLane.entrySet()) {
            ObjectNode l = lanes.addObject();
            int d = e.getValue().values().stream().mapToInt(Integer::intValue).sum();
            Integer t = totals.get(e.getKey());
            l.put("lane", e.getKey()).put("done", d).put("total", t);
            l.put("state", t != null && d >= t ? "done" : !running ? "stopped" : d > 0 ? "running" : "waiting");
            ObjectNode s = l.putObject("byStatus");
            e.getValue().forEach(s::put);
        }
        if (inCase != null) {
            try {
                for (com.fasterxml.jackson.databind.JsonNode c : ResultJson.MAPPER.readTree(inCase)) {
                    // the run words where the case is by its sampling rule (MinDurations#progress)
                    String text = c.path("case").asText() + " " + c.path("backend").asText() + ": " + c.path("now").asText();
                    for (com.fasterxml.jackson.databind.JsonNode l : lanes) {
                        if (l.path("lane").asText().equals(c.path("lane").asText())) {
                            ((ObjectNode) l).put("now", text);
                        }
                    }
                }
            } catch (java.io.IOException | RuntimeException e) {
                // a progress file caught mid-write is read again at the next poll
            }
        }
        return o;
    }

    private void broadcast(String event, String data) {
        for (SseClient c : clients) {
            if (c.terminated()) {
                clients.remove(c);
                continue;
            }
            try {
                c.sendEvent(event, data);
            } catch (RuntimeException e) {
                clients.remove(c); // the page went away mid-write
            }
        }
    }

    /** Stops polling and ends every stream. */
    @Override
    public void close() {
        poller.shutdownNow();
        List<SseClient> open = List.copyOf(clients);
        clients.clear();
        for (SseClient c : open) {
            try {
                if (!c.terminated()) {
                    c.close();
                }
            } catch (RuntimeException e) {
                LOG.debug("live stream already gone: {}", e.toString());
            }
        }
    }
}
