package dev.accelbridge.bridge.run;

import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.BackendId;

import java.util.Collection;

/** Opens one lane per browser (launching it through the bridge) and closes them all at the end. */
public interface BrowserLanes extends AutoCloseable {
    /**
     * Starts {@code browser}, lets its page probe, and returns the lane.
     *
     * @param backends every browser backend the run's chains name, to probe
     * @throws dev.accelbridge.core.BackendUnavailableException when the browser is not installed (evidence: where it was looked for)
     * @throws dev.accelbridge.core.AccelbridgeException        when it is installed but would not start or join
     */
    Lane open(BrowserKind browser, Collection<BackendId> backends);

    /** Closes every browser and the bridge. */
    @Override
    void close();
}
