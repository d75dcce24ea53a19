package dev.accelbridge.run;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.BackendId;

import java.util.Collection;

/**
 * The browser side's {@link LaneSource}: opens lanes of browsers (launching each through the bridge) and closes them all at
 * the end. {@link #open} may be called from several threads at once, one per parallel lane, each call giving a browser and
 * page of its own. A lane is asked for by its target: a browser, at a major version or the one installed, with an
 * onnxruntime-web version ({@link dev.accelbridge.core.BrowserSpec#lane}); {@link #expected} gives it the installed
 * browser's major; {@link #release} lets a lane's browser close once its cases are done, so a run of many lanes never holds
 * all of their pages at once.
 */
@PublicApi
public interface BrowserLanes extends LaneSource {
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
    @Override
    Lane open(LaneId target, Collection<BackendId> backends);
}
