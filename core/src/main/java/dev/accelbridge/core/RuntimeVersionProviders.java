package dev.accelbridge.core;

/**
 * Providers of a runtime at another version than the one this process loaded, found by {@link java.util.ServiceLoader}
 * ({@code META-INF/services/dev.accelbridge.core.RuntimeVersionProviders}): native-runner registers ONNX Runtime's, each
 * version in a runner process of its own so native libraries never mix. What {@code accelbridge run --ort} asks for.
 */
public interface RuntimeVersionProviders {
    /** The runtime whose versions this makes providers of ({@code onnxruntime}). */
    String runtime();

    /**
     * A provider of this runtime at {@code version}, serving the same backends as this process's; closing it ends what it
     * started.
     *
     * @throws BackendUnavailableException when that version cannot be had or started here, with the evidence
     */
    BackendProvider at(String version);

    /**
     * Every version of this runtime its repository publishes (what a version bisection walks).
     *
     * @throws AccelbridgeException when the repository cannot be asked
     */
    java.util.List<String> published();

    /** The versions this machine has without fetching (the build's, the cache's, this process's own). */
    java.util.List<String> installed();

    /**
     * Which of {@code versions} can be had here, asked once for them all: version → null when it can, else why not (a
     * repository can list a version whose files it does not serve). By default every version can.
     */
    default java.util.Map<String, String> obtainable(java.util.List<String> versions) {
        java.util.Map<String, String> out = new java.util.LinkedHashMap<>();
        versions.forEach(v -> out.put(v, null));
        return out;
    }
}
