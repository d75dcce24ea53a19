package dev.accelbridge.nativerunner.process;

import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.RuntimeVersionProviders;

/**
 * ONNX Runtime at any version Maven Central publishes, each in a runner process of its own
 * ({@link ProcessRuntimeProvider}); registered as a {@link RuntimeVersionProviders} service.
 */
public final class OrtVersionProviders implements RuntimeVersionProviders {
    @Override
    public String runtime() {
        return "onnxruntime";
    }

    @Override
    public BackendProvider at(String version) {
        return new ProcessRuntimeProvider(version);
    }
}
