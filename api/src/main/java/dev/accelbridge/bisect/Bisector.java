package dev.accelbridge.bisect;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.Bisection;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Tolerance;
import dev.accelbridge.suites.OnnxModels;
import dev.accelbridge.suites.onnx.OnnxTensors;
import dev.accelbridge.suites.onnx.proto.Onnx.GraphProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.NodeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;
import dev.accelbridge.suites.surgery.NodeRepro;
import dev.accelbridge.suites.surgery.Taps;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * Finds the first node where a backend's tensors leave the reference's. The model's intermediate values are exposed as
 * extra outputs ({@link Taps}), in windows of at most {@link #WINDOW} values; the same input runs once on native CPU
 * (the reference) and once on the backend; the first value in node order outside the tolerance names the node: every
 * value before it, and so every input of that node, was within. The error is then followed along the worst consumer
 * to a model output.
 *
 * <p>Exposing a value keeps ONNX Runtime from fusing across it, so a divergence that lives only in a fused kernel can
 * vanish here: that is reported as {@link Bisection.Outcome#NOT_LOCALIZED}, never guessed.
 */
public final class Bisector {
    /** Values exposed per pass (one pass covers every model of the suites). */
    static final int WINDOW = 2000;
    private static final int MAX_PATH = 64;

    private final Path workDir;
    private final Duration timeout;

    /**
     * @param workDir where the exposed models are written while they run
     * @param timeout limit for each run of an exposed model
     */
    public Bisector(Path workDir, Duration timeout) {
        this.workDir = workDir;
        this.timeout = timeout;
    }

    /** What a bisection found, and what it needs to write a repro. */
    public record Found(Bisection bisection, ModelProto model, int node, Map<String, NamedTensor> reference,
                        Execution backendRun, Execution referenceRun) {
        Found withNonFinite(Bisection.NonFinite nf) {
            return new Found(bisection.withNonFinite(nf), model, node, reference, backendRun, referenceRun);
        }
    }

    /**
     * Bisects {@code mc} on {@code backend}.
     *
     * @param provider  runs the backend
     * @param cpu       runs the native CPU reference
     * @param tolerance the tolerance of each value by element type (the case's own)
     */
    public Found bisect(ModelCase mc, BackendId backend, BackendProvider provider, BackendProvider cpu,
                        Function<DType, Tolerance> tolerance, Integer threads) {
        double floatTol = tolerance.apply(DType.FLOAT32).atol();
        ModelSpec spec = mc.model();
        String unfit = unfit(spec);
        if (unfit != null) {
            return failed(backend, floatTol, 0, unfit);
        }
        ModelProto original;
        try {
            original = OnnxTensors.readModel(spec.path());
        } catch (AccelbridgeException e) {
            return failed(backend, floatTol, 0, e.oneLine());
        }
        KnownIfs knownIfs = new KnownIfs(workDir, timeout);
        ModelProto m;
        try {
            // the values inside an If's branches are not the graph's: the branch taken is inlined so they can be exposed
            m = knownIfs.inline(original, mc, spec, cpu, threads);
        } catch (RuntimeException e) {
            return failed(backend, floatTol, 0, "the If branches could not be inlined: " + Tapped.oneLine(e));
        }
        // the windows' passes stop at a failure, or where the backend refuses a tapped model (nodes run alone instead)
        ExposedWindows w = new ExposedWindows(workDir, timeout, m, mc, backend, provider, cpu, tolerance, threads, floatTol);
        Found found = conclude(w, original, m, mc, spec, backend, provider, cpu, tolerance, threads, floatTol, knownIfs);
        // an overflow inside the graph, which a finite output can hide, is said whatever the bisection concluded
        return w.nonFinite == null ? found : found.withNonFinite(w.nonFinite);
    }

    private Found conclude(ExposedWindows w, ModelProto original, ModelProto m, ModelCase mc, ModelSpec spec, BackendId backend,
                           BackendProvider provider, BackendProvider cpu, Function<DType, Tolerance> tolerance, Integer threads,
                           double floatTol, KnownIfs knownIfs) {
        Found ended = w.compareAll();
        if (ended != null) {
            return ended;
        }
        if (w.first == null && w.rounded != null) {
            return afterRounding(w, floatTol, backend);
        }
        if (w.first == null) {
            String inIf = knownIfs.inIfNodes(original, m, mc, spec, backend, provider, cpu, tolerance, threads);
            return new Found(Bisection.without(Bisection.Outcome.NOT_LOCALIZED, backend, "native-cpu", floatTol, w.compared,
                    "all " + w.compared + " intermediate tensors are within tolerance when exposed; " + (inIf != null ? inIf
                            : "exposing them keeps ONNX Runtime from fusing nodes, so the divergence may live in a fused kernel")),
                    m, -1, w.ref, w.lastBackendRun, w.lastCpuRun);
        }
        return firstFound(w, floatTol, backend);
    }

    /** Why the model cannot be bisected before it is read (no file, or weights outside it), or null. */
    private static String unfit(ModelSpec spec) {
        if (spec.path() == null || !Files.isRegularFile(spec.path())) {
            return "the model is not a file";
        }
        if (!OnnxModels.externalData(spec.path()).isEmpty()) {
            return "models with external data are not bisected yet";
        }
        return null;
    }

    /**
     * Only a one-step rounding and values computed from it left tolerance. Every node computed from it runs at once, fed
     * the reference's values (the rounded one among them): where they give the reference's values, nothing after the
     * rounding diverges of its own beyond tolerance, and the rounding is the whole story in one run, however many nodes
     * grew from it (found when tried: a q8 embedder stayed NOT_LOCALIZED, more nodes grown from one rounding than a
     * bisection runs alone). Otherwise each runs alone, fed the reference's inputs, to name one wrong of its own; the
     * rounding is the whole story only when all ran and none diverges.
     */
    private static Found afterRounding(ExposedWindows w, double floatTol, BackendId backend) {
        ModelProto m = w.m;
        GraphProto g = w.g;
        Taps.Value rounded = w.rounded;
        String at = "after a one-step rounding at '" + Taps.nodeName(g, rounded.node()) + "'";
        AloneRuns.Verdict all = w.alone.together(m, Rounding.downstream(g, rounded.node()), w.ref);
        if (all.failure() == null && !all.diverges()) {
            return roundingFound(m, rounded, w.ref, w.errors, floatTol, backend, w.compared, w.lastBackendRun, w.lastCpuRun,
                    "; every node computed from it, run together on " + backend + " with the reference's inputs, gives the reference's "
                    + "values");
        }
        String together = "the nodes computed from it, run together on " + backend + " with the reference's inputs, "
                + (all.failure() != null ? "could not run (" + all.failure() + ")" : "diverge (" + (all.mismatch() != null ? all.mismatch()
                : all.parity().describe()) + ")");
        Rounding.Grown grown = Rounding.checkGrown(w.grownOut, idx -> w.alone.run(m, idx, w.ref), AloneRuns.MAX_NODES);
        AloneRuns.Verdict v = grown.verdict();
        if (v != null && v.failure() != null) {
            // unknown is not "does not diverge": the rounding cannot be named the whole story
            return new Found(Bisection.without(Bisection.Outcome.NOT_LOCALIZED, backend, "native-cpu", floatTol, w.compared,
                    at + ", " + together + ", and '" + Taps.nodeName(g, grown.node()) + "' (computed from it) could not run alone on "
                    + backend + " to tell whether it diverges of its own: " + v.failure()), m, -1, w.ref, w.lastBackendRun, w.lastCpuRun);
        }
        if (v != null) {
            return aloneFound(m, grown.node(), w.ref, v, floatTol, backend, w.compared, at + " (" + g.getNode(rounded.node()).getOpType()
                    + "), this node alone diverges on " + backend + " with the reference's inputs", w.lastCpuRun);
        }
        if (grown.unchecked() > 0) {
            return new Found(Bisection.without(Bisection.Outcome.NOT_LOCALIZED, backend, "native-cpu", floatTol, w.compared,
                    at + ", " + together + "; " + grown.ran() + " of them ran alone on " + backend + " and none diverges, but "
                    + grown.unchecked() + " more left tolerance and were not run (at most " + AloneRuns.MAX_NODES
                    + " a bisection): the rounding cannot be named the whole story"), m, -1, w.ref, w.lastBackendRun, w.lastCpuRun);
        }
        // each within tolerance alone, their errors added up past it together: still no node wrong of its own
        return roundingFound(m, rounded, w.ref, w.errors, floatTol, backend, w.compared, w.lastBackendRun, w.lastCpuRun,
                "; " + together + ", but each ran alone and none diverges");
    }

    /** The first divergence of its own, at its node with its largest output error, and any rounding looked past before it. */
    private static Found firstFound(ExposedWindows w, double floatTol, BackendId backend) {
        GraphProto g = w.g;
        Taps.Value rounded = w.rounded;
        int idx = w.first.node();
        NodeProto node = g.getNode(idx);
        double err = 0;
        for (String o : node.getOutputList()) {
            err = Math.max(err, w.errors.getOrDefault(o, 0.0));
        }
        Bisection b = atNode(Bisection.Outcome.FOUND, g, idx, w.ref, err, floatTol, backend, path(g, idx, w.errors), w.compared,
                w.notRounding != null ? w.notRounding : rounded == null ? null : "after a one-step rounding at '"
                + Taps.nodeName(g, rounded.node()) + "' (" + g.getNode(rounded.node()).getOpType() + "), which this node does not depend on");
        return new Found(b, w.m, idx, w.ref, w.lastBackendRun, w.lastCpuRun);
    }

    /** The first node of {@code window} that diverges run alone with the reference's inputs, or NOT_LOCALIZED saying why. */
    static Found aloneInstead(ModelProto m, List<Taps.Value> window, Map<String, NamedTensor> ref, String why, AloneRuns alone,
                              double floatTol, BackendId backend, Execution cpuRun) {
        java.util.Set<Integer> nodes = new java.util.LinkedHashSet<>();
        window.stream().filter(v -> v.node() >= 0).forEach(v -> nodes.add(v.node()));
        int ran = 0;
        int refused = 0;
        String firstRefusal = null;
        for (int idx : nodes) {
            if (ran + refused >= AloneRuns.MAX_NODES) {
                break;
            }
            AloneRuns.Verdict v = alone.run(m, idx, ref);
            if (v.failure() != null) {
                refused++;
                firstRefusal = firstRefusal != null ? firstRefusal : "'" + Taps.nodeName(m.getGraph(), idx) + "': " + v.failure();
                continue;
            }
            ran++;
            if (v.diverges()) {
                return aloneFound(m, idx, ref, v, floatTol, backend, ran, why + "; found by running each node alone on " + backend
                        + " with the reference's inputs (" + ran + " run)", cpuRun);
            }
        }
        return new Found(Bisection.without(Bisection.Outcome.NOT_LOCALIZED, backend, "native-cpu", floatTol, ran, why + "; none of the "
                + ran + " nodes run alone on " + backend + " with the reference's inputs diverges" + (refused == 0 ? ""
                : " (" + refused + " could not run alone, first " + firstRefusal + ")")), m, -1, ref, null, cpuRun);
    }

    private static Found aloneFound(ModelProto m, int idx, Map<String, NamedTensor> ref, AloneRuns.Verdict v, double floatTol,
                                    BackendId backend, int compared, String note, Execution cpuRun) {
        GraphProto g = m.getGraph();
        NodeProto node = g.getNode(idx);
        Bisection b = atNode(Bisection.Outcome.FOUND, g, idx, ref, v.maxAbsErr(), floatTol, backend,
                List.of(new Bisection.Step(Taps.nodeName(g, idx), node.getOpType(), v.maxAbsErr())), compared,
                v.mismatch() == null ? note : note + " (" + v.mismatch() + ")");
        return new Found(b, m, idx, ref, null, cpuRun);
    }

    /** The divergence starts as one-step rounding at {@code rounded}'s node, and grows along its path to an output. */
    private static Found roundingFound(ModelProto m, Taps.Value rounded, Map<String, NamedTensor> ref, Map<String, Double> errors,
                                       double floatTol, BackendId backend, int compared, Execution backendRun, Execution cpuRun,
                                       String checked) {
        GraphProto g = m.getGraph();
        int idx = rounded.node();
        List<Bisection.Step> path = path(g, idx, errors);
        Bisection.Step end = path.get(path.size() - 1);
        String type = ref.containsKey(rounded.name()) ? ref.get(rounded.name()).dtype().webName() : "integer";
        Bisection b = atNode(Bisection.Outcome.ROUNDING, g, idx, ref, errors.getOrDefault(rounded.name(), 1.0), floatTol, backend, path,
                compared, String.format(java.util.Locale.ROOT, "its %s output is one quantization step from the reference's "
                        + "(rounding two correct implementations may differ in); every later value outside tolerance is computed "
                        + "from it, grown to max abs %.3g at '%s'%s", type, end.maxAbsErr(), end.node(), checked));
        return new Found(b, m, idx, ref, backendRun, cpuRun);
    }

    /** What bisection names at node {@code idx}: its name, op type, attributes and shapes beside what the caller measured. */
    private static Bisection atNode(Bisection.Outcome outcome, GraphProto g, int idx, Map<String, NamedTensor> ref, double err,
                                    double floatTol, BackendId backend, List<Bisection.Step> path, int compared, String note) {
        NodeProto node = g.getNode(idx);
        return new Bisection(outcome, Taps.nodeName(g, idx), node.getOpType(), NodeRepro.attributes(node),
                shapes(node.getInputList(), ref, g), shapes(node.getOutputList(), ref, g), err, floatTol, "native-cpu", backend, path,
                compared, null, note);
    }

    /** From the diverging node to a model output, each step to the consumer with the largest error. */
    static List<Bisection.Step> path(GraphProto g, int start, Map<String, Double> errors) {
        Map<String, List<Integer>> consumers = Taps.consumers(g);
        java.util.Set<String> outputs = new java.util.HashSet<>();
        g.getOutputList().forEach(v -> outputs.add(v.getName()));
        List<Bisection.Step> steps = new ArrayList<>();
        int cur = start;
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        while (cur >= 0 && steps.size() < MAX_PATH && seen.add(cur)) {
            NodeProto n = g.getNode(cur);
            double e = 0;
            boolean reachesOutput = false;
            for (String o : n.getOutputList()) {
                e = Math.max(e, errors.getOrDefault(o, 0.0));
                reachesOutput |= outputs.contains(o);
            }
            steps.add(new Bisection.Step(Taps.nodeName(g, cur), n.getOpType(), e));
            if (reachesOutput) {
                break;
            }
            int next = -1;
            double worst = -1;
            for (String o : n.getOutputList()) {
                for (int c : consumers.getOrDefault(o, List.of())) {
                    double ce = 0;
                    for (String co : g.getNode(c).getOutputList()) {
                        ce = Math.max(ce, errors.getOrDefault(co, 0.0));
                    }
                    if (ce > worst) {
                        worst = ce;
                        next = c;
                    }
                }
            }
            cur = next;
        }
        return steps;
    }

    private static List<String> shapes(List<String> names, Map<String, NamedTensor> values, GraphProto g) {
        List<String> out = new ArrayList<>();
        for (String n : names) {
            if (n.isEmpty()) {
                continue;
            }
            NamedTensor t = values.get(n);
            if (t != null) {
                out.add(n + ": " + t.dtype().webName() + java.util.Arrays.toString(t.shape()).replace(" ", ""));
                continue;
            }
            TensorProto init = Taps.initializer(g, n);
            out.add(init == null ? n : n + ": " + TensorProto.DataType.forNumber(init.getDataType()).name().toLowerCase()
                    + init.getDimsList().toString().replace(" ", "") + " (initializer)");
        }
        return out;
    }

    static Found failed(BackendId backend, double tol, int compared, String why) {
        return new Found(Bisection.without(Bisection.Outcome.FAILED, backend, "native-cpu", tol, compared, why), null, -1,
                Map.of(), null, null);
    }

}
