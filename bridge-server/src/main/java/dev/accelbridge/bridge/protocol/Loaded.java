package dev.accelbridge.bridge.protocol;

import dev.accelbridge.core.PublicApi;

import java.util.List;
import java.util.Map;

/**
 * A load's answer: the session made, how long its creation and the model's fetch took, its input and output names, the
 * wasm threads onnxruntime-web runs, its warnings, where its nodes were placed when asked, and the WebAssembly modules
 * the page instantiated (which engine ran, from what ran).
 *
 * @param session     the session, as the bridge named it
 * @param sessionMs   the session's creation, in the page
 * @param fetchMs     the model's fetch; null when its bytes came in the frame
 * @param inputNames  the session's inputs
 * @param outputNames the session's outputs
 * @param numThreads  the wasm threads
 * @param warnings    onnxruntime-web's warnings meanwhile
 * @param placement   where the nodes went, when the load asked ({@code checkPlacement})
 * @param modules     the WebAssembly modules instantiated, {@code name sha256:...}
 */
@PublicApi
public record Loaded(String session, Double sessionMs, Double fetchMs, List<String> inputNames, List<String> outputNames,
                     Integer numThreads, List<String> warnings, Placement placement, List<String> modules) implements FromPage {
    @Override
    public MessageKind kind() {
        return MessageKind.LOADED;
    }

    /**
     * Where the nodes went: whether the session was made with no CPU fallback, the refusal word for word when not, and
     * per provider the nodes ONNX Runtime's log placed on it.
     */
    public record Placement(Boolean onRequested, String basis, Map<String, PlacedNodes> nodes) {
    }

    /** A provider's nodes: how many, and their names ({@code OpType (name)}). */
    public record PlacedNodes(Integer count, List<String> nodes) {
    }
}
