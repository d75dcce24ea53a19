package dev.accelbridge.bridge.bisect;

import dev.accelbridge.core.AccelbridgeException;
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
import dev.accelbridge.suites.OnnxModels;
import dev.accelbridge.suites.onnx.OnnxTensors;
import dev.accelbridge.suites.onnx.proto.Onnx.GraphProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.NodeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;
import dev.accelbridge.suites.surgery.ControlFlow;
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
    private static final int MAX_INLINE_ROUNDS = 4;

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
        if (spec.path() == null || !Files.isRegularFile(spec.path())) {
            return failed(backend, floatTol, 0, "the model is not a file");
        }
        if (!OnnxModels.externalData(spec.path()).isEmpty()) {
            return failed(backend, floatTol, 0, "models with external data are not bisected yet");
        }
        ModelProto m;
        try {
            m = OnnxTensors.readModel(spec.path());
        } catch (AccelbridgeException e) {
            return failed(backend, floatTol, 0, e.oneLine());
        }
        try {
            m = inlineKnownIfs(m, mc, spec, cpu, threads);
        } catch (RuntimeException e) {
            return failed(backend, floatTol, 0, "the If branches could not be inlined: " + oneLine(e));
        }
        GraphProto g = m.getGraph();
        List<Taps.Value> values = Taps.values(m);
        Map<String, NamedTensor> ref = new LinkedHashMap<>();
        mc.inputs().forEach(t -> ref.put(t.name(), t));
        Map<String, Double> errors = new HashMap<>();
        Execution lastBackendRun = null;
        Execution lastCpuRun = null;
        int compared = 0;
        Taps.Value first = null;
        for (int from = 0; from < values.size() && first == null; from += WINDOW) {
            List<Taps.Value> window = values.subList(from, Math.min(values.size(), from + WINDOW));
            Taps.Exposed exposed = Taps.expose(m, window.stream().map(Taps.Value::name).toList());
            Path file;
            try {
                Files.createDirectories(workDir);
                file = Files.createTempFile(workDir, spec.name().replaceAll("[^A-Za-z0-9_.-]", "_") + "-tapped-", ".onnx");
                Files.write(file, exposed.model().toByteArray());
            } catch (IOException e) {
                return failed(backend, floatTol, compared, "cannot write the exposed model: " + e.getMessage());
            }
            try {
                ModelCase tapped = withModel(mc, spec, file, from);
                Map<String, NamedTensor> cpuOut;
                Map<String, NamedTensor> backendOut;
                try {
                    lastCpuRun = cpu.execute(new ExecutionRequest(BackendId.CPU, tapped, 0, 1, timeout, threads, null));
                    cpuOut = named(lastCpuRun, exposed);
                } catch (RuntimeException e) {
                    return failed(backend, floatTol, compared, "the exposed model failed on native CPU: " + oneLine(e));
                }
                try {
                    lastBackendRun = provider.execute(new ExecutionRequest(backend, tapped, 0, 1, timeout, threads, null));
                    backendOut = named(lastBackendRun, exposed);
                } catch (RuntimeException e) {
                    return failed(backend, floatTol, compared, "the exposed model failed on " + backend + ": " + oneLine(e));
                }
                ref.putAll(cpuOut);
                for (Taps.Value v : window) {
                    NamedTensor r = cpuOut.get(v.name());
                    NamedTensor a = backendOut.get(v.name());
                    if (r == null || a == null) {
                        continue;
                    }
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
                    if (!within && first == null) {
                        first = v;
                    }
                }
            } finally {
                try {
                    Files.deleteIfExists(file);
                } catch (IOException e) {
                    // a leftover in the work folder is harmless
                }
            }
        }
        if (first == null) {
            return new Found(Bisection.without(Bisection.Outcome.NOT_LOCALIZED, backend, "native-cpu", floatTol, compared,
                    "all " + compared + " intermediate tensors are within tolerance when exposed; exposing them keeps ONNX "
                            + "Runtime from fusing nodes, so the divergence may live in a fused kernel"), m, -1, ref, lastBackendRun, lastCpuRun);
        }
        int idx = first.node();
        NodeProto node = g.getNode(idx);
        double err = 0;
        for (String o : node.getOutputList()) {
            err = Math.max(err, errors.getOrDefault(o, 0.0));
        }
        Bisection b = new Bisection(Bisection.Outcome.FOUND, Taps.nodeName(g, idx), node.getOpType(),
                dev.accelbridge.suites.surgery.NodeRepro.attributes(node), shapes(node.getInputList(), ref, g),
                shapes(node.getOutputList(), ref, g), err, floatTol, "native-cpu", backend, path(g, idx, errors), compared,
                null, null);
        return new Found(b, m, idx, ref, lastBackendRun, lastCpuRun);
    }

    /**
     * The model with every If whose condition this input decides replaced by its taken branch ({@link ControlFlow}), so
     * the values inside are exposed like any other: the conditions are read from a native CPU run of the model with them
     * exposed, round after round for Ifs nested in an inlined branch (at most {@link #MAX_INLINE_ROUNDS}).
     */
    private ModelProto inlineKnownIfs(ModelProto m, ModelCase mc, ModelSpec spec, BackendProvider cpu, Integer threads) {
        for (int round = 0; round < MAX_INLINE_ROUNDS && ControlFlow.has(m.getGraph()); round++) {
            List<String> conds = ControlFlow.ifConditions(m.getGraph());
            if (conds.isEmpty()) {
                break;
            }
            Map<String, NamedTensor> known = new LinkedHashMap<>();
            mc.inputs().forEach(t -> known.put(t.name(), t));
            for (TensorProto t : m.getGraph().getInitializerList()) {
                if (conds.contains(t.getName())) {
                    known.put(t.getName(), OnnxTensors.fromProto(t, t.getName()));
                }
            }
            List<String> computed = conds.stream().filter(c -> !known.containsKey(c)).distinct().toList();
            if (!computed.isEmpty()) {
                Taps.Exposed exposed = Taps.expose(m, computed);
                Path file = null;
                try {
                    Files.createDirectories(workDir);
                    file = Files.createTempFile(workDir, "conditions-", ".onnx");
                    Files.write(file, exposed.model().toByteArray());
                    known.putAll(named(cpu.execute(new ExecutionRequest(BackendId.CPU, withModel(mc, spec, file, -1 - round), 0, 1,
                            timeout, threads, null)), exposed));
                } catch (IOException e) {
                    throw new AccelbridgeException("cannot write the model with its conditions exposed: " + e.getMessage(), null);
                } finally {
                    try {
                        if (file != null) {
                            Files.deleteIfExists(file);
                        }
                    } catch (IOException e) {
                        // a leftover in the work folder is harmless
                    }
                }
            }
            Map<String, Boolean> decided = new HashMap<>();
            for (String c : conds) {
                NamedTensor t = known.get(c);
                if (t != null && t.size() == 1) {
                    decided.put(c, t.toDoubles()[0] != 0);
                }
            }
            if (decided.isEmpty()) {
                break;
            }
            m = ControlFlow.inlineIfs(m, decided);
        }
        return m;
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

    private static ModelCase withModel(ModelCase mc, ModelSpec spec, Path file, int window) {
        ModelSpec tapped = new ModelSpec(spec.family(), spec.name() + "-tapped", file, "tapped-" + window + "-" + spec.sha256(),
                spec.opset(), spec.parameters(), spec.ops(), spec.inputs(), spec.outputs(), spec.source(), spec.tolerance());
        return new ModelCase(tapped, mc.inputSet(), mc.inputs(), java.util.Optional.empty(), mc.freeDims(), mc.precision());
    }

    /** An execution's outputs by the exposed model's output names (a runtime may call them by position). */
    private static Map<String, NamedTensor> named(Execution e, Taps.Exposed exposed) {
        List<NamedTensor> outs = e.outputs();
        if (outs.size() != exposed.outputs().size()) {
            throw new AccelbridgeException("the exposed model gave " + outs.size() + " outputs, it declares "
                    + exposed.outputs().size(), null);
        }
        Map<String, NamedTensor> m = new LinkedHashMap<>();
        for (int k = 0; k < outs.size(); k++) {
            String n = exposed.outputs().get(k);
            NamedTensor byName = outs.stream().filter(t -> t.name().equals(n)).findFirst().orElse(outs.get(k));
            m.put(n, byName.withName(n));
        }
        return m;
    }

    private static Found failed(BackendId backend, double tol, int compared, String why) {
        return new Found(Bisection.without(Bisection.Outcome.FAILED, backend, "native-cpu", tol, compared, why), null, -1,
                Map.of(), null, null);
    }

    private static String oneLine(RuntimeException e) {
        return e instanceof AccelbridgeException a ? a.oneLine() : e.toString();
    }
}
