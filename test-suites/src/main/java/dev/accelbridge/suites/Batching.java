package dev.accelbridge.suites;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.TensorSpec;
import dev.accelbridge.suites.onnx.OnnxTensors;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ValueInfoProto;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A case at another batch size. The batched inputs are the graph inputs whose leading dimension is symbolic; at
 * batch {@code b} each holds the fed items in order, cycling when the input set has fewer than {@code b}
 * ({@link NamedTensor#atBatch}), so item {@code k} of every batch size is the same item. Inputs with a fixed leading
 * dimension (a scalar, a state) are fed as they are, and the batch symbol's free-dimension value follows.
 */
@PublicApi
public final class Batching {
    private Batching() {
    }

    /**
     * {@code mc} at batch {@code b}; empty when the model's batch dimension is fixed (no input has a symbolic leading
     * dimension), so it runs at its own batch only.
     */
    public static Optional<ModelCase> atBatch(ModelCase mc, int b) {
        List<String> batched = batchedInputs(mc);
        if (batched.isEmpty() || !mc.scenario().batchable()) {
            return Optional.empty();
        }
        if (batchOf(mc) == b) {
            return Optional.of(mc);
        }
        List<NamedTensor> inputs = new ArrayList<>();
        boolean resized = false;
        for (NamedTensor t : mc.inputs()) {
            // a zero-size leading dimension (an empty `axes`, split sizes of shape [0]) is legal ONNX data with no items to
            // repeat: it is fed as given, as is a rank-0 tensor
            boolean resizable = batched.contains(t.name()) && t.shape().length > 0 && t.shape()[0] > 0;
            inputs.add(resizable ? t.atBatch(b) : t);
            resized |= resizable;
        }
        if (!resized) {
            return Optional.of(mc);
        }
        Map<String, Long> free = new LinkedHashMap<>(mc.freeDims());
        batchSymbol(mc).ifPresent(s -> free.put(s, (long) b));
        // shipped expected outputs belong to the shipped batch: a resized case is checked against the native CPU run, and
        // its parity says that it replaced the shipped reference
        String replaced = mc.expected().isPresent()
                ? "batch " + b + " replaced the expected outputs shipped for batch " + batchOf(mc) + " with this run's native CPU outputs"
                : mc.replacedReference();
        return Optional.of(new ModelCase(mc.model(), mc.inputSet(), inputs, Optional.empty(), free, mc.precision(), replaced)
                .withRuntimeOptions(mc.runtimeOptions()));
    }

    /**
     * The batch the case is fed at: the leading dimension of its first batched input; for a model with a fixed batch,
     * what {@link CaseId#batchOf} records.
     */
    public static int batchOf(ModelCase mc) {
        List<String> batched = batchedInputs(mc);
        if (batched.isEmpty()) {
            return CaseId.batchOf(mc.inputs());
        }
        return mc.inputs().stream().filter(t -> batched.contains(t.name()) && t.shape().length > 0 && t.shape()[0] > 0)
                .mapToInt(t -> (int) t.shape()[0]).findFirst().orElse(1);
    }

    private static List<String> batchedInputs(ModelCase mc) {
        List<String> out = new ArrayList<>();
        for (TensorSpec s : mc.model().inputs()) {
            if (s.shape().length > 0 && s.shape()[0] < 0) {
                out.add(s.name());
            }
        }
        return out;
    }

    private static Optional<String> batchSymbol(ModelCase mc) {
        try {
            ModelProto m = OnnxTensors.readModel(mc.model().path());
            for (ValueInfoProto v : OnnxModels.graphInputs(m)) {
                String[] p = OnnxTensors.dimParams(v);
                if (p.length > 0 && p[0] != null && !p[0].isEmpty()) {
                    return Optional.of(p[0]);
                }
            }
        } catch (SuiteException e) {
            return Optional.empty();
        }
        return Optional.empty();
    }
}
