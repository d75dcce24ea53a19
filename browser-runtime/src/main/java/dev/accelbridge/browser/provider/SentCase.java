package dev.accelbridge.browser.provider;

import dev.accelbridge.bridge.hub.PageSessions;
import dev.accelbridge.core.Scenario;

import dev.accelbridge.bridge.BridgeServer;
import dev.accelbridge.bridge.ModelRegistry;
import dev.accelbridge.bridge.OutputBudget;
import dev.accelbridge.bridge.hub.ConnectedPage;
import dev.accelbridge.bridge.hub.ExecutionProviderSpec;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.core.RuntimeOptions;
import dev.accelbridge.bridge.hub.LoadedSession;
import dev.accelbridge.bridge.hub.RunOutcome;
import dev.accelbridge.bridge.hub.SessionUse;

import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.MinDurations;
import dev.accelbridge.core.TimeBudget;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A case's first jobs as sent to a page: its load, and for a case of one timed run its run too, sent together under one
 * session id (the page takes jobs in order), with the model files registered for serving while the case lasts.
 */
final class SentCase {
    final ExecutionRequest request;
    final ConnectedPage page;
    final String sessionId;
    final ModelRegistry.ModelRef ref;
    final Map<String, ModelRegistry.ModelRef> external;
    /** The provider and the session options the case's session is made with. */
    final ExecutionProviderSpec ep;
    final RuntimeOptions options;
    final CompletableFuture<LoadedSession> loading;
    /** The one timed run, sent with the load; null for a case of warm-ups or several runs. */
    final CompletableFuture<RunOutcome> running;

    private SentCase(ExecutionRequest request, ConnectedPage page, String sessionId, ModelRegistry.ModelRef ref,
                     Map<String, ModelRegistry.ModelRef> external, ExecutionProviderSpec ep, RuntimeOptions options,
                     CompletableFuture<LoadedSession> loading, CompletableFuture<RunOutcome> running) {
        this.request = request;
        this.page = page;
        this.sessionId = sessionId;
        this.ref = ref;
        this.external = external;
        this.ep = ep;
        this.options = options;
        this.loading = loading;
        this.running = running;
    }

    /** One timed run, no warm-up and no minimum duration: the run needs nothing from the load's answer. */
    static boolean oneRun(ExecutionRequest r) {
        return r.warmups() == 0 && r.iterations() == 1 && r.durations().total().isZero() && r.modelCase().scenario() instanceof Scenario.SinglePass;
    }

    /** Also nothing after the timed run (no drill-down): the lane's next case may follow it in the page's queue. */
    static boolean endsWithItsRun(ExecutionRequest r) {
        return oneRun(r) && r.profileIterations() == 0 && r.recreate() == 0;
    }

    /** The request's time limit: its own, else the bridge's job timeout. */
    static Duration timeout(ExecutionRequest request, BridgeServer server) {
        return request.timeout() != null ? request.timeout() : server.options().jobTimeout();
    }

    /**
     * Registers the request's model files and sends its load (and its run, for {@link #oneRun}) to {@code page}, under the
     * request's time limits counted from {@code later} from now (the time the cases queued in front of it may take).
     */
    static SentCase send(ConnectedPage page, BridgeServer server, ExecutionRequest request, OrtWebEngine engine, MinDurations durations,
                         OutputBudget budget, Duration later) {
        ModelRegistry models = ModelRegistry.of(server);
        ExecutionProviderSpec ep = PageOptions.ep(request, engine);
        RuntimeOptions ro = PageOptions.on(request, engine);
        SessionUse use = placementUse(ep, request);
        Duration t = timeout(request, server);
        ModelRegistry.ModelRef ref = models.register(request.modelCase().model().path());
        Map<String, ModelRegistry.ModelRef> external = models.registerExternalData(request.modelCase().model());
        String sid = PageSessions.newSessionId();
        CompletableFuture<LoadedSession> loading = load(page, request, sid, ref, models.inline(ref, !external.isEmpty()).orElse(null),
                external, ep, ro, use, PageOptions.graphOptimizationLevel(ro), TimeBudget.min(t, request.effectiveLoadTimeout()).plus(later),
                checkMayWait(request, use));
        CompletableFuture<RunOutcome> running = oneRun(request)
                ? PageSessions.of(page).run(sid, request.modelCase().inputs(), 0, 1, durations, t.plus(later), budget, request.progress()) : null;
        return new SentCase(request, page, sid, ref, external, ep, ro, loading, running);
    }

    /**
     * How the case's session is made: with its placement checked wherever it is not known without a check
     * ({@link dev.accelbridge.core.Placement}), so a pass with nodes on the CPU EP says so; wasm's is known. Which nodes is
     * listed only where the case's figures are settled: the listing is one more session made with ONNX Runtime's verbose log
     * (on SwiftShader, bert-mini's took 3.8 s against 0.7 s for the timed one), which a verdict alone does not need.
     */
    static SessionUse placementUse(ExecutionProviderSpec ep, ExecutionRequest request) {
        if (ep.cpuOnly()) {
            return SessionUse.TIMED;
        }
        return request.verdictWindow() ? SessionUse.PLACEMENT_CHECKED : SessionUse.PLACEMENT_LISTED;
    }

    /**
     * Whether the case's placement check may wait for its release (on a page whose engine for the provider has not
     * started): a checked case of several runs, whose release {@link BrowserCase} awaits; a single run's is not awaited.
     */
    private static boolean checkMayWait(ExecutionRequest request, SessionUse use) {
        return use.checksPlacement() && !oneRun(request);
    }

    /** {@link #checkMayWait(ExecutionRequest, SessionUse)} for this case, as it was sent. */
    boolean checkMayWait() {
        return checkMayWait(request, placementUse(ep, request));
    }

    /** The case's session made once more at the graph optimization level {@code level}, every other option as sent. */
    CompletableFuture<LoadedSession> loadAt(String level, Duration timeout) {
        return load(page, request, PageSessions.newSessionId(), ref, null, external, ep, options, SessionUse.TIMED, level, timeout, false);
    }

    private static CompletableFuture<LoadedSession> load(ConnectedPage page, ExecutionRequest request, String sid, ModelRegistry.ModelRef ref,
                                                         byte[] inline, Map<String, ModelRegistry.ModelRef> external,
                                                         ExecutionProviderSpec ep, RuntimeOptions ro, SessionUse use, String level,
                                                         Duration timeout, boolean placementAtRelease) {
        return PageSessions.of(page).load(sid, ref, inline, ep, timeout, request.threads(), request.modelCase().freeDims(), external, use,
                PageOptions.gpuOutputs(request.modelCase(), request.backend()), level, PageOptions.graphCapture(ro), placementAtRelease);
    }

    /** Stops serving the case's model files. */
    void unregister(ModelRegistry models) {
        models.unregister(ref);
        external.values().forEach(models::unregister);
    }

    /** A case sent ahead and not used: its answers are ignored, its session released, its files no longer served. */
    void drop(ModelRegistry models) {
        loading.exceptionally(e -> null);
        if (running != null) {
            running.exceptionally(e -> null);
        }
        if (page.isOpen()) {
            PageSessions.of(page).release(sessionId, Duration.ofSeconds(10)).exceptionally(e -> null);
        }
        unregister(models);
    }
}
