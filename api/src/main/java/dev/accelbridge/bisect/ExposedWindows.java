package dev.accelbridge.bisect;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.Bisection;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Tolerance;
import dev.accelbridge.suites.onnx.proto.Onnx.GraphProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.surgery.Taps;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * {@link Bisector}'s passes over one model: its values exposed a window at a time ({@link Bisector#WINDOW}), each window
 * run on native CPU and on the backend and compared value by value in node order, until a value outside tolerance names
 * a node of its own. What the passes found is left in the fields {@link Bisector} reads its conclusion from.
 */
final class ExposedWindows {
    private final Path workDir;
    private final Duration timeout;
    private final ModelCase mc;
    private final ModelSpec spec;
    private final BackendId backend;
    private final BackendProvider provider;
    private final BackendProvider cpu;
    private final Function<DType, Tolerance> tolerance;
    private final Integer threads;
    private final double floatTol;

    /** The model as bisected (its known If branches inlined) and its graph. */
    final ModelProto m;
    final GraphProto g;
    private final List<Taps.Value> values;
    /** The reference's values by name: the case's inputs, then every exposed value native CPU gave. */
    final Map<String, NamedTensor> ref = new LinkedHashMap<>();
    /** The max abs error of each value compared. */
    final Map<String, Double> errors = new HashMap<>();
    final AloneRuns alone;
    Execution lastBackendRun;
    Execution lastCpuRun;
    int compared;
    /** The first value outside tolerance that is a divergence of its own, once found (the passes stop at its window). */
    Taps.Value first;
    /** The first value non-finite on the backend, in node order among those compared (null: none). */
    Bisection.NonFinite nonFinite;
    /** The first quantize output one step off: looked past (Rounding). */
    Taps.Value rounded;
    /** Why a quantize output a step off is a defect all the same. */
    String notRounding;
    /** The nodes computed from {@link #rounded}. */
    private Set<Integer> grown = Set.of();
    /** Nodes computed from {@link #rounded} whose values left tolerance, in order. */
    final List<Integer> grownOut = new ArrayList<>();

    ExposedWindows(Path workDir, Duration timeout, ModelProto m, ModelCase mc, BackendId backend, BackendProvider provider,
                   BackendProvider cpu, Function<DType, Tolerance> tolerance, Integer threads, double floatTol) {
        this.workDir = workDir;
        this.timeout = timeout;
        this.mc = mc;
        this.spec = mc.model();
        this.backend = backend;
        this.provider = provider;
        this.cpu = cpu;
        this.tolerance = tolerance;
        this.threads = threads;
        this.floatTol = floatTol;
        this.m = m;
        this.g = m.getGraph();
        this.values = Taps.values(m);
        mc.inputs().forEach(t -> ref.put(t.name(), t));
        this.alone = new AloneRuns(workDir.resolve("alone"), timeout, threads, backend, provider, tolerance, mc);
    }

    /** Every window in turn until one names the first divergence; a bisection ended early (failed, or nodes run alone instead), else null. */
    Bisector.Found compareAll() {
        for (int from = 0; from < values.size() && first == null; from += Bisector.WINDOW) {
            Bisector.Found ended = window(from);
            if (ended != null) {
                return ended;
            }
        }
        return null;
    }

    /** One window's values exposed, run and compared; the exposed model's file is deleted after, whatever happened. */
    private Bisector.Found window(int from) {
        List<Taps.Value> window = values.subList(from, Math.min(values.size(), from + Bisector.WINDOW));
        Taps.Exposed exposed = Taps.expose(m, window.stream().map(Taps.Value::name).toList());
        Path file;
        try {
            Files.createDirectories(workDir);
            file = Files.createTempFile(workDir, spec.name().replaceAll("[^A-Za-z0-9_.-]", "_") + "-tapped-", ".onnx");
            Files.write(file, exposed.model().toByteArray());
        } catch (IOException e) {
            return Bisector.failed(backend, floatTol, compared, "cannot write the exposed model: " + e.getMessage());
        }
        try {
            return runAndCompare(window, exposed, Tapped.withModel(mc, spec, file, from));
        } finally {
            try {
                Files.deleteIfExists(file);
            } catch (IOException e) {
                // a leftover in the work folder is harmless
            }
        }
    }

    /** The exposed model on native CPU, then on the backend, then their values compared; a bisection ended early, else null. */
    private Bisector.Found runAndCompare(List<Taps.Value> window, Taps.Exposed exposed, ModelCase tapped) {
        Map<String, NamedTensor> cpuOut;
        Map<String, NamedTensor> backendOut;
        try {
            lastCpuRun = cpu.execute(ExecutionRequest.forOutputs(BackendId.CPU, tapped, timeout, threads));
            cpuOut = Tapped.named(lastCpuRun, exposed);
        } catch (RuntimeException e) {
            return Bisector.failed(backend, floatTol, compared, "the exposed model failed on native CPU: " + Tapped.oneLine(e));
        }
        try {
            lastBackendRun = provider.execute(ExecutionRequest.forOutputs(backend, tapped, timeout, threads));
            backendOut = Tapped.named(lastBackendRun, exposed);
        } catch (RuntimeException e) {
            // exposing values changed the graph under test: each node alone, fed the reference's inputs, instead
            ref.putAll(cpuOut);
            return Bisector.aloneInstead(m, window, ref, "the exposed model failed on " + backend + ": " + Tapped.oneLine(e), alone,
                    floatTol, backend, lastCpuRun);
        }
        ref.putAll(cpuOut);
        for (Taps.Value v : window) {
            NamedTensor r = cpuOut.get(v.name());
            NamedTensor a = backendOut.get(v.name());
            if (r != null && a != null) {
                compare(v, r, a);
            }
        }
        return null;
    }

    /** One value, reference against backend: its error recorded, and judged while no first divergence is known. */
    private void compare(Taps.Value v, NamedTensor r, NamedTensor a) {
        compared++;
        double err;
        boolean within;
        try {
            Parity p = Parity.compare(List.of(r), List.of(a), tolerance, "native-cpu");
            err = p.maxAbsErr();
            within = p.within();
        } catch (RuntimeException e) {
            err = Double.POSITIVE_INFINITY; // a shape or type that differs is a divergence of its own
            within = false;
        }
        errors.put(v.name(), err);
        if (nonFinite == null && v.node() >= 0) {
            nonFinite = Bisection.NonFinite.of(Taps.nodeName(g, v.node()), g.getNode(v.node()).getOpType(), r, a);
        }
        if (!within && first == null) {
            judge(v, r, a);
        }
    }

    /**
     * A value outside tolerance: the first one-step rounding of a quantize output is looked past (unless its node alone
     * shows a defect), a value computed from it is kept to run alone later, and any other is the first divergence.
     */
    private void judge(Taps.Value v, NamedTensor r, NamedTensor a) {
        boolean stepOff = rounded == null && Rounding.quantizes(g.getNode(v.node())) && Rounding.oneStep(r, a);
        notRounding = stepOff ? Rounding.notRounding(alone.run(m, v.node(), ref), backend) : null;
        if (stepOff && notRounding == null) {
            rounded = v;
            grown = Rounding.downstream(g, v.node());
        } else if (rounded == null || (v.node() != rounded.node() && !grown.contains(v.node()))) {
            first = v; // a divergence of its own: nothing rounded comes before it, or it does not depend on it
        } else if (v.node() != rounded.node() && !grownOut.contains(v.node())) {
            grownOut.add(v.node());
        }
    }
}
