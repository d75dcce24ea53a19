package dev.accelbridge.bisect;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Tolerance;
import dev.accelbridge.suites.onnx.OnnxTensors;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorProto;
import dev.accelbridge.suites.surgery.ControlFlow;
import dev.accelbridge.suites.surgery.Taps;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** Inlines the If nodes whose condition the case's input decides, so bisection sees inside their branches. */
final class KnownIfs {
    private static final int MAX_INLINE_ROUNDS = 4;

    private final Path workDir;
    private final Duration timeout;

    KnownIfs(Path workDir, Duration timeout) {
        this.workDir = workDir;
        this.timeout = timeout;
    }

    /**
     * The model with every If whose condition this input decides replaced by its taken branch ({@link ControlFlow}), so
     * the values inside are exposed like any other: the conditions are read from a native CPU run of the model with them
     * exposed, round after round for Ifs nested in an inlined branch (at most {@link #MAX_INLINE_ROUNDS}).
     */
    ModelProto inline(ModelProto m, ModelCase mc, ModelSpec spec, BackendProvider cpu, Integer threads) {
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
                    known.putAll(Tapped.named(cpu.execute(ExecutionRequest.forOutputs(BackendId.CPU, Tapped.withModel(mc, spec, file, -1 - round),
                            timeout, threads)), exposed));
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

    /**
     * When every exposed value of {@code inlined} stayed within tolerance: whether the divergence lives in the If nodes
     * themselves. The model as it is and {@code inlined} (untapped) run whole on {@code backend} and natively; when the
     * model diverges and its inlined form does not, a note saying so, naming the Ifs; else null.
     */
    String inIfNodes(ModelProto original, ModelProto inlined, ModelCase mc, ModelSpec spec, BackendId backend, BackendProvider provider,
                     BackendProvider cpu, java.util.function.Function<DType, Tolerance> tolerance,
                     Integer threads) {
        List<String> ifs = original.getGraph().getNodeList().stream().filter(n -> n.getOpType().equals("If"))
                .map(n -> n.getName().isEmpty() ? n.getOutput(0) : n.getName()).toList();
        if (ifs.isEmpty() || ControlFlow.has(inlined.getGraph()) && inlined.getGraph().getNodeCount() == original.getGraph().getNodeCount()) {
            return null;
        }
        Path file = null;
        try {
            Files.createDirectories(workDir);
            file = Files.createTempFile(workDir, "inlined-", ".onnx");
            Files.write(file, inlined.toByteArray());
            ModelCase flat = Tapped.withModel(mc, spec, file, -100);
            boolean whole = within(mc, backend, provider, cpu, tolerance, threads);
            boolean flattened = within(flat, backend, provider, cpu, tolerance, threads);
            return whole || !flattened ? null : "the model with its If nodes inlined (the branch this input takes) matches native CPU "
                    + "on " + backend + " while the model as it is does not: the divergence lives in the If node" + (ifs.size() == 1 ? " '"
                    + ifs.get(0) + "'" : "s " + ifs) + " itself, not in any node of its branch";
        } catch (IOException | RuntimeException e) {
            return null; // the plain NOT_LOCALIZED stands
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

    private boolean within(ModelCase c, BackendId backend, BackendProvider provider, BackendProvider cpu,
                           java.util.function.Function<DType, Tolerance> tolerance, Integer threads) {
        List<NamedTensor> want = cpu.execute(ExecutionRequest.forOutputs(BackendId.CPU, c, timeout, threads)).outputs();
        List<NamedTensor> got = provider.execute(ExecutionRequest.forOutputs(backend, c, timeout, threads)).outputs();
        return Parity.compare(want, got, tolerance, "native-cpu").within();
    }
}
