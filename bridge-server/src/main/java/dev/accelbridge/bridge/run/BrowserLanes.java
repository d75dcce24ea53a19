package dev.accelbridge.bridge.run;

import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.BackendId;

import java.util.Collection;

/**
 * Opens lanes of browsers (launching each through the bridge) and closes them all at the end. {@link #open} may be called
 * from several threads at once, one per parallel lane, each call giving a browser and page of its own.
 */
public interface BrowserLanes extends AutoCloseable {
    /**
     * Starts {@code browser}, lets its page probe, and returns the lane.
     *
     * @param backends every browser backend the run's chains name, to probe
     * @throws dev.accelbridge.core.BackendUnavailableException when the browser is not installed (evidence: where it was looked for)
     * @throws dev.accelbridge.core.AccelbridgeException        when it is installed but would not start or join
     */
    Lane open(BrowserKind browser, Collection<BackendId> backends);

    /** How many lanes of one browser may run at once ({@code --parallel} is capped by it): any number by default. */
    default int maxLanes() {
        return Integer.MAX_VALUE;
    }

    /** Whether a browser of this kind is already up and idle, so {@link #open} will not launch one (a session's pool). */
    default boolean warm(BrowserKind browser) {
        return false;
    }

    /** Closes every browser and the bridge. */
    @Override
    void close();
}
