package dev.accelbridge.bridge.run;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.BackendId;

import java.util.Collection;

/**
 * Opens lanes of browsers (launching each through the bridge) and closes them all at the end. {@link #open} may be called
 * from several threads at once, one per parallel lane, each call giving a browser and page of its own. A lane is asked
 * for by its target: a browser, at a major version or the one installed, with an onnxruntime-web version
 * ({@link dev.accelbridge.core.BrowserSpec#lane}).
 */
@PublicApi
public interface BrowserLanes extends AutoCloseable {
    /**
     * Starts the browser of {@code target}, lets its page (loading the target's onnxruntime-web) probe, and returns the lane,
     * whose {@link Lane#id()} names the versions that really run.
     *
     * @param backends every browser backend the run's chains name, to probe
     * @throws dev.accelbridge.core.BackendUnavailableException when the browser or that onnxruntime-web cannot be had here
     *                                                          (evidence: where it was looked for)
     * @throws dev.accelbridge.core.UnsupportedModelException  when that onnxruntime-web cannot run in this browser
     * @throws dev.accelbridge.core.AccelbridgeException        when it is installed but would not start or join
     */
    Lane open(LaneId target, Collection<BackendId> backends);

    /**
     * The lane {@code target} will be, as far as it is known before anything launches (the major version of the browser
     * installed): what an interrupted run's finished cases are matched against, and the lane of its cases when the browser
     * cannot start. The target itself by default.
     */
    default LaneId expected(LaneId target) {
        return target;
    }

    /**
     * The lane's cases of this run are done: its browser may close (or wait, in a session's pool, for the next run), so a
     * run of many lanes (each browser with each onnxruntime-web version) never holds all of their pages at once. Nothing by
     * default.
     */
    default void release(LaneId target, Lane lane) {
    }

    /** How many lanes of one browser may run at once ({@code --parallel} is capped by it): any number by default. */
    default int maxLanes() {
        return Integer.MAX_VALUE;
    }

    /** Whether a lane of this target is already up and idle, so {@link #open} will not launch one (a session's pool). */
    default boolean warm(LaneId target) {
        return false;
    }

    /** Closes every browser and the bridge. */
    @Override
    void close();
}
