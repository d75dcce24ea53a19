package dev.accelbridge.browser.provider;

import dev.accelbridge.core.BackendException.Phase;
import dev.accelbridge.core.ExecutionFailedException;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.core.Untrusted;

import java.util.List;
import java.util.Optional;

/**
 * Whether the engine a lane asked for is the one its page loaded: another engine's module fails the case, and a page
 * that names no module leaves the engine as asked, not observed, with a warning saying so.
 */
final class EngineObserved {
    private EngineObserved() {
    }

    /**
     * The engine asked of the lane against the module its page loaded: a bundle that loads another engine's module (an
     * older release's {@code ort.webgpu.min.js} loads JSEP's) would file every figure under the wrong engine. Modules the
     * page did not name leave it unknown.
     */
    static void check(Optional<OrtWebEngine> engine, List<String> modules) {
        engine.ifPresent(asked -> {
            if (!modules.isEmpty() && modules.stream().noneMatch(asked::isModule)) {
                throw new ExecutionFailedException(Phase.LOAD, "The lane asked for " + asked.description() + " (engine " + asked.id()
                        + ") but its page loaded " + Untrusted.quote(String.join(", ", modules)) + ", another engine's module",
                        "run this onnxruntime-web on the engine its bundle brings, or a release that ships " + asked.module(), null);
            }
        });
    }

    /**
     * The warning a case gets when its page named no WebAssembly module: its engine is the one asked for, not one observed
     * (found when tried: the engine check passed in silence then).
     */
    static Optional<String> unobserved(Optional<OrtWebEngine> engine, List<String> modules) {
        return modules.isEmpty() ? engine.map(asked -> "the page named no onnxruntime-web WebAssembly module it loaded: "
                + "the engine (" + asked.id() + ") is the one asked for, not one observed") : Optional.empty();
    }
}
