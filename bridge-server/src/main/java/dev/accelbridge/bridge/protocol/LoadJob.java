package dev.accelbridge.bridge.protocol;

import dev.accelbridge.core.PublicApi;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonInclude;

import java.util.List;
import java.util.Map;

/**
 * A load job ({@code load}): make session {@code session} from {@code model} on execution provider {@code ep} with
 * {@code options}. The model is fetched from its URL, or its bytes follow in the frame (no {@code url}).
 *
 * @param session the session's name, chosen by the bridge
 * @param model   the model
 * @param ep      the execution provider, as onnxruntime-web takes it
 * @param options the session options
 */
@PublicApi
public record LoadJob(String session, Model model, Ep ep, SessionOptions options) implements ToPage {
    @Override
    public MessageKind kind() {
        return MessageKind.LOAD;
    }

    /**
     * The model: its opaque id and URL (none when its bytes are in the frame), its name and size, and the weight files
     * it names (onnxruntime-web's {@code externalData}), each by its own URL.
     */
    public record Model(String id, String url, String name, long byteLength,
                        @JsonInclude(JsonInclude.Include.NON_EMPTY) List<ExternalFile> externalData) {
        /** Copies the list. */
        public Model {
            externalData = externalData == null ? List.of() : List.copyOf(externalData);
        }
    }

    /** A weights file: the path the model names and the URL the bridge serves it at. */
    public record ExternalFile(String path, String url) {
    }

    /**
     * An execution provider as onnxruntime-web takes it: its name ({@code webgpu}, {@code webnn}, {@code wasm}), a WebNN
     * device type, and the provider's own options beside them ({@code preferredLayout}, ...).
     */
    public record Ep(String name, String deviceType, @JsonAnyGetter Map<String, String> options) {
        /** Copies the map. */
        public Ep {
            options = options == null ? Map.of() : Map.copyOf(options);
        }
    }

    /**
     * Session options: onnxruntime-web's by their names, and the page's own ({@code checkPlacement}: whether every node
     * runs on the provider asked for; {@code listPlacement}: which nodes do not, where some do not;
     * {@code placementAtRelease}: the check may wait for the session's release where the page's engine for the provider
     * has not started, so the timed session holds the start; {@code numThreads}: the wasm threads, fixed at the page's first
     * session). A null or empty one is not sent.
     */
    public record SessionOptions(String graphOptimizationLevel, int logSeverityLevel, Integer numThreads, Boolean enableProfiling,
                                 Boolean checkPlacement, Boolean listPlacement, Boolean placementAtRelease, @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, Long> freeDimensionOverrides,
                                 Boolean enableGraphCapture,
                                 @JsonInclude(JsonInclude.Include.NON_EMPTY) Map<String, String> preferredOutputLocation) {
        /** The options every load has: the optimization level and warnings-and-up logging. */
        public static SessionOptions at(String graphOptimizationLevel) {
            return new SessionOptions(graphOptimizationLevel, 2, null, null, null, null, null, Map.of(), null, Map.of());
        }
    }
}
