package dev.accelbridge.nativerunner.process;

import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.RuntimeVersionProviders;
import dev.accelbridge.nativerunner.DjlOnnxRuntimeProvider;

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

    @Override
    public java.util.List<String> published() {
        return OrtJars.defaults().published();
    }

    @Override
    public java.util.Map<String, String> obtainable(java.util.List<String> versions) {
        return OrtJars.defaults().obtainable(versions);
    }

    @Override
    public java.util.List<String> installed() {
        java.util.List<String> out = new java.util.ArrayList<>(OrtJars.defaults().installed());
        String here = DjlOnnxRuntimeProvider.environment().ortVersion();
        if (here != null && !out.contains(here)) {
            out.add(here);
        }
        return out;
    }
}
