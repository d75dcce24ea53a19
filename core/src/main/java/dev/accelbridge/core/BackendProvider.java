package dev.accelbridge.core;

import java.util.Set;

/**
 * The backend SPI, in the manner of DJL's {@code EngineProvider} and OSHI's {@code SystemInfoProvider}: a
 * provider serves some {@link BackendId}s, says whether each is available here (with evidence), and executes
 * cases on them. Native providers are found with {@link java.util.ServiceLoader}
 * ({@code META-INF/services/dev.accelbridge.core.BackendProvider}); browser providers are made per browser by
 * the bridge. When two providers serve one backend, the higher {@link #priority()} wins.
 *
 * <p>A provider never invents a figure: a backend it cannot run is reported unavailable with the evidence.
 */
public interface BackendProvider extends AutoCloseable {

    /** A short name for logs and provenance ({@code djl-onnxruntime}, {@code browser:chromium}). */
    String name();

    /** The backends this provider can be asked about. */
    Set<BackendId> backends();

    /** Higher wins when two providers serve the same backend. */
    default int priority() {
        return 0;
    }

    /** Probes one backend. Never throws for an absent backend: returns it unavailable with the evidence. */
    Availability probe(BackendId backend);

    /**
     * Runs one case.
     *
     * @throws BackendUnavailableException the backend is absent
     * @throws UnsupportedModelException   the backend cannot run this model
     * @throws ExecutionFailedException    loading or running failed, timed out or crashed
     */
    Execution execute(ExecutionRequest request);

    /**
     * A hint given before {@link #execute}: {@code next} is most likely the request that follows that one (a lane's next
     * case). A provider may start on it early (a browser page queues its jobs behind the case now running), as long as
     * executing it gives what it would have given without the hint; a hint that turns out wrong costs nothing but the
     * work begun. The default ignores it.
     */
    default void upcoming(ExecutionRequest next) {
    }

    /**
     * The version of the runtime this provider runs cases with (ONNX Runtime's, natively; onnxruntime-web's in a browser),
     * when it knows it: part of its lane's identity ({@link LaneId}).
     */
    default java.util.Optional<String> runtimeVersion() {
        return java.util.Optional.empty();
    }

    /** Releases sessions, engines, browsers. */
    @Override
    default void close() {
    }
}
