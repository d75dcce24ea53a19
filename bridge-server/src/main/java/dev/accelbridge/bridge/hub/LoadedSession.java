package dev.accelbridge.bridge.hub;

import dev.accelbridge.core.Placement;
import dev.accelbridge.core.PublicApi;

import java.util.List;

/**
 * An onnxruntime-web session a page created.
 *
 * @param sessionId   the page-side session id
 * @param sessionMs   {@code InferenceSession.create} time, measured in the page
 * @param fetchMs     time the page took to fetch the model bytes (NaN when it was sent in a frame, which the page does not time, or the page gave no figure)
 * @param inputNames  the session's input names
 * @param outputNames the session's output names
 * @param numThreads  {@code ort.env.wasm.numThreads} after creation, or -1 when not reported
 * @param warnings    ORT's warnings while creating it (e.g. nodes not placed on the requested provider)
 * @param onRequested for a session made with its placement checked ({@link SessionUse#PLACEMENT_CHECKED}): whether
 *                    onnxruntime-web created it with CPU fallback disabled; null when not checked
 * @param placementBasis the page's account of that check (onnxruntime-web's refusal, word for word, when it refused)
 * @param placedOn    where a refused session's nodes went, from ONNX Runtime's own "Node placements" log (a session made
 *                    once more with its verbose log, untimed): provider → its nodes; null when the log was not read
 * @param modules     the file names of the onnxruntime-web WebAssembly modules the page had fetched when it answered, as
 *                    the page says (untrusted: {@code OrtWebBuild.module} names only files the bridge serves)
 */
@PublicApi
public record LoadedSession(String sessionId, double sessionMs, double fetchMs, List<String> inputNames,
                            List<String> outputNames, int numThreads, List<String> warnings, Boolean onRequested,
                            String placementBasis, List<String> modules, NodePlacement placedOn) {
    public LoadedSession {
        modules = List.copyOf(modules);
        inputNames = List.copyOf(inputNames);
        outputNames = List.copyOf(outputNames);
        warnings = List.copyOf(warnings);
    }

    /**
     * Where this session's nodes ran, for a session made for {@code ep}: on wasm the CPU EP is the one asked for; elsewhere
     * the page's check, or null when the session was not checked (or its check was left for the release:
     * {@link Released#placementCheck}).
     */
    public Placement placement(ExecutionProviderSpec ep) {
        String requested = ep.ortProviderName();
        if (ep.cpuOnly()) {
            return Placement.onRequested(requested, "onnxruntime-web's wasm backend has the CPU EP alone");
        }
        return onRequested == null ? null : new PlacementCheck(onRequested, placementBasis, placedOn).placement(ep);
    }
}
