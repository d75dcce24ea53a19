package dev.accelbridge.browser.bridge;

import java.util.List;

/**
 * An onnxruntime-web session a page created.
 *
 * @param sessionId   the page-side session id
 * @param sessionMs   {@code InferenceSession.create} time, measured in the page
 * @param fetchMs     time the page took to fetch the model bytes (0 when sent in a frame)
 * @param inputNames  the session's input names
 * @param outputNames the session's output names
 * @param numThreads  {@code ort.env.wasm.numThreads} after creation, or -1 when not reported
 * @param warnings    ORT's warnings while creating it (e.g. nodes not placed on the requested provider)
 */
public record LoadedSession(String sessionId, double sessionMs, double fetchMs, List<String> inputNames,
                            List<String> outputNames, int numThreads, List<String> warnings) {
    public LoadedSession {
        inputNames = List.copyOf(inputNames);
        outputNames = List.copyOf(outputNames);
        warnings = List.copyOf(warnings);
    }
}
