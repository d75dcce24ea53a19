package dev.accelbridge.bisect;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.suites.surgery.Taps;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** A model with values exposed as outputs, as a case to run, and its outputs read back by name. */
final class Tapped {
    private Tapped() {
    }

    static ModelCase withModel(ModelCase mc, ModelSpec spec, Path file, int window) {
        // no outputs declared: the exposed values are outputs too, and a budget of the model's own outputs refused them
        ModelSpec tapped = new ModelSpec(spec.family(), spec.name() + "-tapped", file, "tapped-" + window + "-" + spec.sha256(),
                spec.opset(), spec.parameters(), spec.ops(), spec.inputs(), List.of(), spec.source(), spec.tolerance());
        return new ModelCase(tapped, mc.inputSet(), mc.inputs(), java.util.Optional.empty(), mc.freeDims(), mc.precision());
    }

    /** An execution's outputs by the exposed model's output names (a runtime may call them by position). */
    static Map<String, NamedTensor> named(Execution e, Taps.Exposed exposed) {
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

    static String oneLine(RuntimeException e) {
        return e instanceof AccelbridgeException a ? a.oneLine() : e.toString();
    }
}
