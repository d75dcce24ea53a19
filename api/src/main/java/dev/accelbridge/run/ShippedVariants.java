package dev.accelbridge.run;

import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.Precision;

import java.util.List;
import java.util.Map;

/**
 * Which of a plan's cases are one model's dtype variants, shipped side by side as a transformers.js folder ships them:
 * the same family, name, folder, inputs and session options, one of them fp32.
 */
final class ShippedVariants {
    private ShippedVariants() {
    }

    /**
     * The dtype variants a model folder ships beside its fp32 graph (a transformers.js folder: one model, so the same name,
     * folder and inputs), by that fp32 case; each variant is judged against the fp32 case's native CPU reference.
     */
    static Map<ModelCase, Map<Precision, ModelCase>> of(List<ModelCase> base) {
        Map<List<String>, ModelCase> fp32 = new java.util.HashMap<>();
        for (ModelCase mc : base) {
            if (mc.precision() == Precision.FP32) {
                fp32.putIfAbsent(siblingKey(mc), mc);
            }
        }
        Map<ModelCase, Map<Precision, ModelCase>> out = new java.util.IdentityHashMap<>();
        for (ModelCase mc : base) {
            ModelCase f = fp32.get(siblingKey(mc));
            if (mc.precision() != Precision.FP32 && f != null) {
                out.computeIfAbsent(f, k -> new java.util.EnumMap<>(Precision.class)).putIfAbsent(mc.precision(), mc);
            }
        }
        return out;
    }

    private static List<String> siblingKey(ModelCase mc) {
        return List.of(mc.model().family().id(), mc.model().name(), String.valueOf(mc.model().source()), mc.inputSet(),
                mc.runtimeOptions().id());
    }

}
