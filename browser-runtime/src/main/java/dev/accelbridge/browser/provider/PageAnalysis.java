package dev.accelbridge.browser.provider;

import dev.accelbridge.bridge.hub.PageSessions;
import dev.accelbridge.bridge.hub.Released;
import dev.accelbridge.bridge.protocol.PageProbe;

import dev.accelbridge.bridge.ModelRegistry;
import dev.accelbridge.bridge.hub.ConnectedPage;
import dev.accelbridge.bridge.hub.ExecutionProviderSpec;
import dev.accelbridge.bridge.hub.LoadedSession;
import dev.accelbridge.bridge.hub.RunOutcome;
import dev.accelbridge.bridge.protocol.Profiled;
import dev.accelbridge.bridge.hub.SessionUse;

import dev.accelbridge.core.Analysis;
import dev.accelbridge.core.ComputedPrecision;
import dev.accelbridge.core.ExecutionRequest;

import com.fasterxml.jackson.databind.JsonNode;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.OpProfile;
import dev.accelbridge.core.Recreate;
import dev.accelbridge.core.Timings;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.function.LongSupplier;

/**
 * The page's side of a case's drill-down, each on its own session after the timed one so nothing here touches the
 * timed samples: the per-op profile (a session made with onnxruntime-web's profiler on, and on WebGPU the kernels'
 * timestamp queries), where a half-precision variant's arithmetic ran (read off that profile) and the re-creation leak
 * check (create, run once, release, read the memory; N times).
 */
final class PageAnalysis {
    /** Awaits a page job, turning its failure into the provider's exception for {@code phase}. */
    interface Awaiter {
        <T> T await(CompletableFuture<T> f);
    }

    private final ConnectedPage page;
    private final ModelRegistry.ModelRef model;
    private final Map<String, ModelRegistry.ModelRef> externalData;
    private final ExecutionProviderSpec ep;
    private final ModelCase mc;
    private final Integer threads;
    private final String optimization;
    private final Awaiter awaiter;

    PageAnalysis(ConnectedPage page, ModelRegistry.ModelRef model, Map<String, ModelRegistry.ModelRef> externalData,
                 ExecutionProviderSpec ep, ModelCase mc, Integer threads, String optimization, Awaiter awaiter) {
        this.page = page;
        this.model = model;
        this.externalData = externalData;
        this.ep = ep;
        this.mc = mc;
        this.threads = threads;
        this.optimization = optimization;
        this.awaiter = awaiter;
    }

    /**
     * The case's drill-down after its timed session: its per-op profile and its leak check, as {@code request} asks, and for
     * a half-precision variant where its arithmetic ran (from the same profiled session's node events).
     */
    Analysis drillDown(ExecutionRequest request, Duration left, PageProbe probe, LongSupplier rss,
                       Analysis base) {
        boolean half = readsComputedPrecision(mc, ep);
        Profiled profiled = request.profileIterations() > 0 ? profiled(request.profileIterations(), left) : half ? onePass(left) : null;
        OpProfile profile = request.profileIterations() == 0 ? null
                : parse(profiled, ep, request.profileIterations(), probe.webgpu().hasFeature("timestamp-query"));
        Recreate rec = request.recreate() == 0 ? null : recreate(request.recreate(), left, rss);
        return new Analysis(null, profile, base.coldStart(), rec, base.placement(), base.readout(), half ? computed(profiled) : null);
    }

    /**
     * Whether the page can tell where {@code mc}'s half-precision arithmetic ran on {@code ep}: on wasm (the CPU EP alone) and
     * WebGPU ONNX Runtime's inserted casts are nodes the profiler names; a WebNN partition is one node whose insides it does
     * not show, so there it stays unknown.
     */
    static boolean readsComputedPrecision(ModelCase mc, ExecutionProviderSpec ep) {
        return mc.precision().halfFloat() && (ep.cpuOnly() || "webgpu".equals(ep.name()));
    }

    /**
     * One profiled run for where half precision ran, not asked for by the user: its failure leaves that unknown rather than
     * failing a case whose timed session passed (a page that broke is found by the next job's check).
     */
    private Profiled onePass(Duration timeout) {
        try {
            return profiled(1, timeout);
        } catch (RuntimeException e) {
            return null;
        }
    }

    /** Profiles {@code iterations} runs on a session of its own. */
    private Profiled profiled(int iterations, Duration timeout) {
        LoadedSession s = awaiter.await(load(timeout, SessionUse.PROFILED));
        try {
            return awaiter.await(PageSessions.of(page).profile(s.sessionId(), mc.inputs(), iterations, timeout));
        } finally {
            release(s);
        }
    }

    /**
     * Where a half-precision variant's arithmetic ran, from the profiler's node events: the casts ONNX Runtime inserted
     * ({@link ComputedPrecision#INSERTED_CAST}) around nodes without a float16 kernel, each counted once; null when the
     * profiler named no node or did not run (nothing to tell from).
     */
    static ComputedPrecision computed(Profiled r) {
        if (r == null) {
            return null;
        }
        java.util.Set<String> nodes = new java.util.HashSet<>();
        java.util.Set<String> casts = new java.util.TreeSet<>();
        java.util.Set<String> inside = new java.util.TreeSet<>();
        for (Profiled.NodeEvent n : present(r.nodes())) {
            if (n.node() == null) {
                continue;
            }
            nodes.add(n.node());
            if ("Cast".equals(n.op()) && n.node().startsWith(ComputedPrecision.INSERTED_CAST)) {
                casts.add(n.node());
            }
            if (JsepFloat32Kernels.inside(n.provider(), n.op())) {
                inside.add(n.op());
            }
        }
        if (nodes.isEmpty()) {
            return null;
        }
        String basis = "onnxruntime-web's session profiler in the page: " + casts.size() + " inserted cast node(s) among the "
                + nodes.size() + " nodes it ran" + (inside.isEmpty() ? "" : "; JSEP's kernels as shipped for the float32 inside");
        List<String> in = List.copyOf(inside);
        return casts.isEmpty() ? ComputedPrecision.asDeclared(in, basis) : ComputedPrecision.inFloat32InPart(casts.size(), in, basis);
    }

    /** Creates, runs once and releases a session {@code cycles} times, reading memory after each release. */
    Recreate recreate(int cycles, Duration timeout, LongSupplier rss) {
        List<Recreate.Cycle> out = new ArrayList<>();
        for (int i = 1; i <= cycles; i++) {
            LoadedSession s = awaiter.await(load(timeout, SessionUse.TIMED));
            RunOutcome r;
            try {
                r = awaiter.await(PageSessions.of(page).run(s.sessionId(), mc.inputs(), 0, 1, timeout));
            } catch (RuntimeException e) {
                release(s);
                throw e;
            }
            Released after = awaiter.await(PageSessions.of(page).releaseWithLedger(s.sessionId(), timeout));
            double runMs = Double.isNaN(r.firstMs()) ? r.samplesMs()[0] : r.firstMs();
            out.add(new Recreate.Cycle(i, s.sessionMs(), runMs, rss.getAsLong(), after.jsHeapBytes(), after.gpuLiveBytes(), after.wasmAfterBytes()));
        }
        return Recreate.of(cycles, out, "after each release: the browser's process-tree RSS, the page's JS heap "
                + "(performance.memory), the GPU bytes its ledger holds and onnxruntime-web's WebAssembly memory");
    }

    /** A session of the case's model at the case's optimization level, so each part drills into the graph that was timed. */
    private java.util.concurrent.CompletableFuture<LoadedSession> load(Duration timeout, SessionUse use) {
        return PageSessions.of(page).load(PageSessions.newSessionId(), model, null, ep, timeout, threads, mc.freeDims(), externalData, use,
                List.of(), optimization, false);
    }

    private void release(LoadedSession s) {
        try {
            PageSessions.of(page).release(s.sessionId(), Duration.ofSeconds(10)).get();
        } catch (Exception e) {
            // the page is judged by the next job; a failed release is not this analysis's result
        }
    }

    /**
     * The page's {@code profiled} answer as an op profile. On WebGPU with kernel times, WebGPU nodes count by their GPU
     * time (the profiler's own node events for them are only the CPU-side dispatch), other nodes and copies by the
     * profiler's time; elsewhere every node by the profiler's time.
     */
    static OpProfile parse(Profiled r, ExecutionProviderSpec ep, int iterations, boolean timestampQuery) {
        String requested = ep.ortProviderName();
        List<OpProfile.NodeEvent> events = new ArrayList<>();
        List<Profiled.GpuKernel> kernels = present(r.gpuKernels());
        boolean gpuTimes = !kernels.isEmpty();
        for (Profiled.GpuKernel k : kernels) {
            events.add(new OpProfile.NodeEvent(text(k.node(), ""), text(k.op(), ""), requested, zero(k.ns()) / 1e6));
        }
        List<OpProfile.NodeEvent> nodes = new ArrayList<>();
        for (Profiled.NodeEvent n : present(r.nodes())) {
            String provider = n.provider();
            String op = text(n.op(), "?");
            if (gpuTimes && requested.equals(provider) && !op.startsWith("Memcpy")) {
                continue;
            }
            nodes.add(new OpProfile.NodeEvent(text(n.node(), ""), op, provider, zero(n.us()) / 1000, n.ts() == null ? Double.NaN : n.ts()));
        }
        // the page profiles one untimed run before the profiled ones; its events are not steady-state time
        double firstStart = Double.POSITIVE_INFINITY;
        double firstEnd = Double.NaN;
        for (Profiled.RunEvent run : present(r.runs())) {
            if (zero(run.ts()) < firstStart) {
                firstStart = zero(run.ts());
                firstEnd = firstStart + zero(run.us());
            }
        }
        events.addAll(OpProfile.afterFirstRun(nodes, firstEnd));
        double[] s = present(r.samplesMs()).stream().mapToDouble(PageAnalysis::zero).toArray();
        Arrays.sort(s);
        String source;
        String note = null;
        if ("webgpu".equals(ep.name())) {
            source = gpuTimes ? "WebGPU timestamp queries + onnxruntime-web session profiler" : "onnxruntime-web session profiler";
            if (!gpuTimes && !ep.gpuKernelTimes()) {
                note = "the native WebGPU EP gives no kernel times (env.webgpu.profiling is JSEP's): WebGPU node times are "
                        + "CPU-side dispatch only; which provider each node ran on holds";
            } else if (!gpuTimes) {
                note = timestampQuery ? "no kernel time came back from the timestamp queries: WebGPU node times are CPU-side dispatch"
                        : "the adapter has no timestamp-query feature: WebGPU node times are CPU-side dispatch only";
            }
        } else {
            source = "onnxruntime-web session profiler";
            if ("webnn".equals(ep.name())) {
                note = "a WebNN partition runs as one node: the time of the ops inside it is not visible";
            }
        }
        return OpProfile.of(source, r.iterations() == null ? iterations : r.iterations(), events, requested, Timings.percentile(s, 50), note);
    }

    /** A list the page gave, its unknown (null) elements left out. */
    private static <T> List<T> present(List<T> l) {
        return l == null ? List.of() : l.stream().filter(java.util.Objects::nonNull).toList();
    }

    private static String text(String s, String absent) {
        return s == null ? absent : s;
    }

    /** A profiler figure as the profile read it before the records: a missing one as 0. */
    private static double zero(Double d) {
        return d == null ? 0 : d;
    }
}
