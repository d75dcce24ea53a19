package dev.accelbridge.bridge.hub;

import dev.accelbridge.bridge.ModelRegistry;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.bridge.protocol.FrameCodec;
import dev.accelbridge.bridge.protocol.MessageKind;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The page protocol's job messages as {@link ConnectedPage} sends them and reads their answers: the header every
 * message carries, a load's model, provider and session options, a frame with a payload, ids no other job or session of
 * this bridge has, and a load's and a run's answer as values ({@code docs/protocol.md}).
 */
final class JobMessages {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final AtomicLong IDS = new AtomicLong();

    private JobMessages() {
    }

    /** A load job's message: the model by its opaque URL (or its bytes to follow in the frame), the provider, the options. */
    static ObjectNode load(String job, String sessionId, ModelRegistry.ModelRef model, byte[] inline, ExecutionProviderSpec ep,
                           Integer threads, Map<String, Long> freeDims, Map<String, ModelRegistry.ModelRef> externalData,
                           SessionUse use) {
        ObjectNode msg = message(MessageKind.LOAD, job);
        msg.put("session", sessionId);
        ObjectNode m = msg.putObject("model");
        m.put("id", model.id());
        if (inline == null) {
            m.put("url", model.urlPath());
        }
        m.put("name", model.name());
        m.put("byteLength", inline == null ? model.size() : inline.length);
        if (!externalData.isEmpty()) {
            // the weights files the model names, each served by its own opaque URL (onnxruntime-web's externalData)
            var ext = m.putArray("externalData");
            externalData.forEach((path, ref) -> ext.addObject().put("path", path).put("url", ref.urlPath()));
        }
        putEp(msg, ep);
        ObjectNode o = msg.putObject("options").put("graphOptimizationLevel", "all").put("logSeverityLevel", 2);
        if (threads != null) {
            o.put("numThreads", threads);
        }
        if (use == SessionUse.PROFILED) {
            o.put("enableProfiling", true);
        }
        if (use == SessionUse.PLACEMENT_CHECKED) {
            o.put("checkPlacement", true);
        }
        if (!freeDims.isEmpty()) {
            ObjectNode f = o.putObject("freeDimensionOverrides");
            freeDims.forEach(f::put);
        }
        return msg;
    }

    /** A binary frame: the message's header, then {@code payload} as it is (a model's bytes). */
    static ByteBuffer withPayload(ObjectNode msg, byte[] payload) {
        byte[] head = FrameCodec.encode(msg, List.of());
        return ByteBuffer.allocate(head.length + payload.length).put(head).put(payload).flip();
    }

    /** The header every job message carries: the protocol version, its kind and its job id. */
    static ObjectNode message(MessageKind type, String job) {
        ObjectNode m = JSON.createObjectNode();
        m.put("v", FrameCodec.PROTOCOL_VERSION);
        m.put("type", type.id());
        m.put("job", job);
        return m;
    }

    /** The execution provider a load asks for, with its WebNN device type when it has one. */
    static void putEp(ObjectNode msg, ExecutionProviderSpec ep) {
        ObjectNode e = msg.putObject("ep");
        e.put("name", ep.name());
        if (ep.deviceType() != null) {
            e.put("deviceType", ep.deviceType());
        }
        ep.options().forEach(e::put);
    }

    /** An id no other job or session of this bridge has, with {@code prefix} ({@code j}, {@code s}). */
    static String nextId(String prefix) {
        return prefix + IDS.incrementAndGet();
    }

    /** A JSON array of strings as a list. */
    static List<String> strings(JsonNode arr) {
        List<String> out = new ArrayList<>();
        arr.forEach(n -> out.add(n.asText()));
        return out;
    }

    /** A load's answer. */
    static LoadedSession toLoaded(JsonNode n) {
        return new LoadedSession(n.path("session").asText(), n.path("sessionMs").asDouble(Double.NaN),
                figure(n.path("fetchMs")), strings(n.path("inputNames")), strings(n.path("outputNames")),
                n.path("numThreads").isNumber() ? n.path("numThreads").asInt() : -1, strings(n.path("warnings")),
                n.path("placement").has("onRequested") ? n.path("placement").path("onRequested").asBoolean() : null,
                n.path("placement").path("basis").asText(null), strings(n.path("modules")),
                NodePlacement.of(n.path("placement").path("nodes")));
    }

    /** A run's answer: its timings, outputs and warnings. */
    static RunOutcome toOutcome(FrameCodec.Frame f) {
        JsonNode h = f.header();
        JsonNode s = h.path("samplesMs");
        double[] samples = new double[s.size()];
        for (int i = 0; i < samples.length; i++) {
            samples[i] = s.get(i).asDouble();
        }
        JsonNode first = h.path("firstMs");
        JsonNode mem = h.path("memory").path("usedJSHeapSize");
        return new RunOutcome(first.isNumber() ? first.asDouble() : Double.NaN, h.path("warmups").asInt(), samples,
                f.tensors(), strings(h.path("warnings")), mem.isNumber() ? mem.asLong() : -1,
                h.path("timerResolutionMs").asDouble(Double.NaN), h.path("readbackMs").asDouble(Double.NaN),
                h.path("gpuMs").asDouble(Double.NaN), h.path("warmupMs").asDouble(Double.NaN),
                h.path("warmupSettled").isBoolean() ? h.path("warmupSettled").asBoolean() : null, h.path("warmupTrend").asDouble(Double.NaN),
                decoding(h.path("decode"), f.tensors()), h.path("encoder").isObject() ? toLoaded(h.path("encoder")) : null,
                h.path("floorStopped").asBoolean(false));
    }

    /**
     * A generation job's figures from its answer's {@code decode}: each timed generation's steps, the cold one's, the cache's
     * size; null for a run job. The page is another program: a step that is not a finite, non-negative number is refused.
     */
    static dev.accelbridge.core.Decoding decoding(JsonNode d, List<dev.accelbridge.core.NamedTensor> outputs) {
        if (!d.isObject()) {
            return null;
        }
        JsonNode steps = d.path("stepsMs");
        double[][] s = new double[steps.size()][];
        for (int g = 0; g < s.length; g++) {
            s[g] = figures(steps.get(g));
        }
        int newTokens = outputs.stream().filter(t -> t.name().equals(dev.accelbridge.core.Generation.TOKENS)).findFirst()
                .map(t -> (int) t.shape()[t.shape().length - 1]).orElse(0);
        return dev.accelbridge.core.Decoding.of(d.path("promptTokens").asInt(), newTokens, s, figures(d.path("coldStepsMs")),
                bytes(d.path("kvCacheBytes"))).withEncoder(figures(d.path("encoderMs")))
                .withTeacherMs(figure(d.path("teacherMs")));
    }

    /** A time the page gave: a finite, non-negative number, else unknown (NaN, never 0). */
    static double figure(JsonNode n) {
        return n.isNumber() && Double.isFinite(n.asDouble()) && n.asDouble() >= 0 ? n.asDouble() : Double.NaN;
    }

    /** A byte count the page gave: a whole, non-negative number, else unknown (never read as 0). */
    static java.util.OptionalLong bytes(JsonNode n) {
        return n.isIntegralNumber() && n.asLong() >= 0 ? java.util.OptionalLong.of(n.asLong()) : java.util.OptionalLong.empty();
    }

    private static double[] figures(JsonNode arr) {
        double[] v = new double[arr.size()];
        for (int i = 0; i < v.length; i++) {
            v[i] = arr.get(i).asDouble(Double.NaN);
            if (!(v[i] >= 0) || Double.isInfinite(v[i])) {
                throw new PageJobException(PageJobException.Kind.PAGE_ERROR, "bad-result", "a generation's step time is not a time: "
                        + arr.get(i));
            }
        }
        return v;
    }
}
