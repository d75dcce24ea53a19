package dev.accelbridge.bridge.hub;

import dev.accelbridge.core.PublicApi;

/** What a page's session is made for, which decides the session options the page adds. */
@PublicApi
public enum SessionUse {
    /** A session whose runs are timed: nothing added. */
    TIMED,
    /**
     * A timed session whose placement is checked first: the page creates it with onnxruntime-web's
     * {@code session.disable_cpu_ep_fallback}, and when onnxruntime-web refuses (some node would run on the CPU) says so
     * and creates it again as usual. Which nodes is not said.
     */
    PLACEMENT_CHECKED,
    /**
     * {@link #PLACEMENT_CHECKED}, and where onnxruntime-web refuses, which nodes went where: one more session, made with
     * ONNX Runtime's verbose log and released (as long to make as the timed one, or longer).
     */
    PLACEMENT_LISTED,
    /** A session for the per-op profile only, with onnxruntime-web's profiler on; never timed. */
    PROFILED;

    /** Whether the page checks this session's placement. */
    public boolean checksPlacement() {
        return this == PLACEMENT_CHECKED || this == PLACEMENT_LISTED;
    }
}
