package dev.accelbridge.core;

/**
 * A session's cold start, split where the runtime lets it be seen: fetching the model, creating the session (graph
 * optimization, kernel/shader-module preparation, weight upload), and the first run (shader pipeline compilation and
 * buffer allocation happen there on WebGPU), against the warm p50.
 *
 * @param fetchMs    the page's fetch of the model bytes; NaN natively (ONNX Runtime reads the file inside creation)
 * @param createMs   session creation
 * @param firstRunMs the first run of the new session
 * @param warmP50Ms  the warm p50 of the same case
 * @param freshPage  whether the case was the first its page (or process) ran: then its first run is what a user meets on
 *                   first use, the engine and its caches cold; later cases' first runs find the engine warmed by the ones
 *                   before them. Null when not known (a record from before)
 */
public record ColdStart(double fetchMs, double createMs, double firstRunMs, double warmP50Ms, Boolean freshPage) {
    /** A cold start whose place in its page is not known. */
    public ColdStart(double fetchMs, double createMs, double firstRunMs, double warmP50Ms) {
        this(fetchMs, createMs, firstRunMs, warmP50Ms, null);
    }

    /** The first run's cost above a warm one (what compiling and allocating on first use took). */
    public double firstRunOverheadMs() {
        return firstRunMs - warmP50Ms;
    }

    /** Everything before a warm run: fetch (when known) + create + first run. */
    public double totalMs() {
        return (Double.isNaN(fetchMs) ? 0 : fetchMs) + createMs + firstRunMs;
    }
}
