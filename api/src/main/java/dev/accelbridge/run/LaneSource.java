package dev.accelbridge.run;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.PublicApi;

import java.util.Collection;

/**
 * Where a run's lanes come from, one kind per side: {@link NativeLaneSource} (this process's ONNX Runtime, and a runner
 * process for each other version) and {@link BrowserLanes} (browsers launched on the bridge, a session's pool of them, a
 * page opened by hand). One scheduler runs every lane's cases the same way: it asks a source for the lane of a target,
 * gives it cases until none are left, and releases it.
 */
@PublicApi
public interface LaneSource extends AutoCloseable {
    /**
     * Opens a lane of {@code target} with its probes of {@code backends}; its {@link Lane#id()} names the versions that
     * really run. May be called from several threads at once (one per parallel lane).
     *
     * @throws dev.accelbridge.core.BackendUnavailableException when what the target needs cannot be had here (the evidence)
     * @throws dev.accelbridge.core.UnsupportedModelException  when it cannot run here
     * @throws dev.accelbridge.core.AccelbridgeException        when it is there but would not start
     */
    Lane open(LaneId target, Collection<BackendId> backends);

    /**
     * The lane {@code target} will be, as far as it is known before anything starts: what an interrupted run's finished
     * cases are matched against, and the lane of its cases when it cannot open. The target itself by default.
     */
    default LaneId expected(LaneId target) {
        return target;
    }

    /** The lane's cases of this run are done: what it holds may end (or wait for the next run). Nothing by default. */
    default void release(LaneId target, Lane lane) {
    }

    /** How many lanes of one target may run at once ({@code --parallel} is capped by it): any number by default. */
    default int maxLanes() {
        return Integer.MAX_VALUE;
    }

    /** Whether a lane of this target is already up and idle, so {@link #open} starts nothing. */
    default boolean warm(LaneId target) {
        return false;
    }

    /** How its lanes of {@code target} are driven, as a case's provenance names it ({@code djl}, {@code playwright}). */
    String driver(LaneId target);

    /** Ends what its lanes still hold. */
    @Override
    void close();
}
