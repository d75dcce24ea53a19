package dev.accelbridge.bridge.hub;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.bridge.ModelRegistry;
import dev.accelbridge.bridge.protocol.FrameCodec;
import dev.accelbridge.bridge.protocol.LoadJob;
import dev.accelbridge.bridge.protocol.Loaded;
import dev.accelbridge.bridge.protocol.PageMessages;
import dev.accelbridge.bridge.protocol.ResultHeader;
import dev.accelbridge.core.Decoding;
import dev.accelbridge.core.Generation;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.ScenarioFigures;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The page protocol's job messages as {@link ConnectedPage} sends them and reads their answers: the header every
 * message carries, a load's model, provider and session options, a frame with a payload, ids no other job or session of
 * this bridge has, and a load's and a run's answer as values ({@code docs/protocol.md}).
 */
final class JobMessages {
    private static final AtomicLong IDS = new AtomicLong();

    private JobMessages() {
    }

    /** A load job: the model by its opaque URL (or its bytes to follow in the frame), the provider, the options. */
    static LoadJob load(String sessionId, ModelRegistry.ModelRef model, byte[] inline, ExecutionProviderSpec ep,
                        LoadJob.SessionOptions options, Map<String, ModelRegistry.ModelRef> externalData) {
        List<LoadJob.ExternalFile> ext = new ArrayList<>();
        // the weights files the model names, each served by its own opaque URL (onnxruntime-web's externalData)
        externalData.forEach((path, ref) -> ext.add(new LoadJob.ExternalFile(path, ref.urlPath())));
        LoadJob.Model m = new LoadJob.Model(model.id(), inline == null ? model.urlPath() : null, model.name(),
                inline == null ? model.size() : inline.length, ext);
        return new LoadJob(sessionId, m, ep(ep), options);
    }

    /** The execution provider a load asks for, with its WebNN device type when it has one and its own options. */
    static LoadJob.Ep ep(ExecutionProviderSpec ep) {
        return new LoadJob.Ep(ep.name(), ep.deviceType(), ep.options());
    }

    /** A binary frame: the message's header, then {@code payload} as it is (a model's bytes). */
    static ByteBuffer withPayload(ObjectNode msg, byte[] payload) {
        byte[] head = FrameCodec.encode(msg, List.of());
        return ByteBuffer.allocate(head.length + payload.length).put(head).put(payload).flip();
    }

    /** An id no other job or session of this bridge has, with {@code prefix} ({@code j}, {@code s}). */
    static String nextId(String prefix) {
        return prefix + IDS.incrementAndGet();
    }

    /** A job's id near the start of a message that cannot be read whole. */
    private static final java.util.regex.Pattern JOB = java.util.regex.Pattern.compile("\"job\"\\s*:\\s*\"([A-Za-z0-9_.:-]{1,100})\"");

    /** The job a message that cannot be read whole names within its first 4 KiB, or null. */
    static String jobNamedIn(String text) {
        java.util.regex.Matcher m = JOB.matcher(text.substring(0, Math.min(text.length(), 4096)));
        return m.find() ? m.group(1) : null;
    }

    /** A list the page gave, its unknown (null) elements left out; none: empty. */
    static List<String> strings(List<String> l) {
        return l == null ? List.of() : l.stream().filter(java.util.Objects::nonNull).toList();
    }

    /** A load's answer. */
    static LoadedSession toLoaded(JsonNode n) {
        return toLoaded(PageMessages.read(n, Loaded.class));
    }

    static LoadedSession toLoaded(Loaded l) {
        Loaded.Placement p = l.placement();
        return new LoadedSession(l.session() == null ? "" : l.session(), figure(l.sessionMs()),
                figure(l.fetchMs()), names("input", l.inputNames()), names("output", l.outputNames()), l.numThreads() == null ? -1 : l.numThreads(),
                strings(l.warnings()), p == null ? null : p.onRequested(), p == null ? null : p.basis(), modules(l.modules()),
                p == null ? null : NodePlacement.of(p.nodes()));
    }

    /** The most inputs or outputs a session may name, and the longest name: they go into each case's key and report. */
    static final int MAX_NAMES = 4096;
    static final int MAX_NAME_CHARS = 1024;

    /**
     * A session's input or output names as the page gave them, refused past their bounds (found when tried: 5 MB of input
     * names went whole into the case key, and a 10 MB matrix.json).
     */
    static List<String> names(String what, List<String> given) {
        List<String> l = strings(given);
        if (l.size() > MAX_NAMES) {
            throw new PageJobException(PageJobException.Kind.PAGE_ERROR, "bad-loaded", "the page's session has " + l.size() + " " + what
                    + " names, past the bound of " + MAX_NAMES);
        }
        for (String n : l) {
            if (n.length() > MAX_NAME_CHARS) {
                throw new PageJobException(PageJobException.Kind.PAGE_ERROR, "bad-loaded", "the page's session has an " + what
                        + " name of " + n.length() + " characters, past the bound of " + MAX_NAME_CHARS);
            }
        }
        return l;
    }

    /** A WebAssembly module's file name, as onnxruntime-web's builds are named. */
    private static final java.util.regex.Pattern MODULE = java.util.regex.Pattern.compile("[A-Za-z0-9._-]{1,120}\\.wasm");

    /**
     * The modules the page names that are file names of a WebAssembly module (at most 16); anything else it says there is
     * not kept (found when tried: a forged "name" of 1,088 characters with ESC and HTML was stored raw).
     */
    static List<String> modules(List<String> given) {
        return strings(given).stream().filter(m -> MODULE.matcher(m).matches()).limit(16).toList();
    }

    /** A run's answer: its timings, outputs and warnings. */
    static RunOutcome toOutcome(FrameCodec.Frame f) {
        ResultHeader h = PageMessages.read(f.header(), ResultHeader.class);
        double[] samples = figures(h.samplesMs(), "a timed run");
        ScenarioFigures figures = h.decode() == null ? ScenarioFigures.SINGLE_PASS : decoding(h.decode(), f.tensors());
        Optional<LoadedSession> encoder = Optional.ofNullable(h.encoder()).map(JobMessages::toLoaded);
        if (h.warmups() != null && h.warmups() < 0) {
            throw new PageJobException(PageJobException.Kind.PAGE_ERROR, "bad-result", "a warm-up count is not a count: " + h.warmups());
        }
        // times are the page's word: one that is not a finite, non-negative number is unknown (a trend may be negative)
        return RunOutcome.of(figure(h.firstMs()), h.warmups() == null ? 0 : h.warmups(), samples, f.tensors(), strings(h.warnings()),
                h.memory() == null || h.memory().usedJSHeapSize() == null ? -1 : h.memory().usedJSHeapSize(), figures, encoder)
                .withClock(figure(h.timerResolutionMs()), figure(h.readbackMs()), figure(h.gpuMs()))
                .withWarmup(figure(h.warmupMs()), h.warmupSettled(), finite(h.warmupTrend()), Boolean.TRUE.equals(h.floorStopped()));
    }

    /**
     * A generation job's figures from its answer's {@code decode}: each timed generation's steps, the cold one's, the cache's
     * size. The page is another program: a step that is not a finite, non-negative number is refused.
     */
    static Decoding decoding(ResultHeader.Decode d, List<NamedTensor> outputs) {
        List<List<Double>> steps = d.stepsMs() == null ? List.of() : d.stepsMs();
        double[][] s = new double[steps.size()][];
        for (int g = 0; g < s.length; g++) {
            s[g] = figures(steps.get(g), "a generation's step");
        }
        int newTokens = outputs.stream().filter(t -> t.name().equals(Generation.TOKENS)).findFirst()
                .map(t -> (int) t.shape()[t.shape().length - 1]).orElse(0);
        return Decoding.of(d.promptTokens() == null ? 0 : d.promptTokens(), newTokens, s,
                figures(d.coldStepsMs(), "a generation's step"), bytes(d.kvCacheBytes()))
                .withEncoder(figures(d.encoderMs(), "an encoder's run"))
                .withTeacherMs(figure(d.teacherMs()));
    }

    /** A number the page gave that may be negative (a trend): finite, else unknown. */
    private static double finite(Double v) {
        return v != null && Double.isFinite(v) ? v : Double.NaN;
    }

    /** A time the page gave: a finite, non-negative number, else unknown (NaN, never 0). */
    static double figure(Double n) {
        return n != null && Double.isFinite(n) && n >= 0 ? n : Double.NaN;
    }

    /** A byte count the page gave: a whole, non-negative number, else unknown (never read as 0). */
    static java.util.OptionalLong bytes(Long n) {
        return n != null && n >= 0 ? java.util.OptionalLong.of(n) : java.util.OptionalLong.empty();
    }

    /** Times the page gave, each a finite, non-negative number: the page is another program, so anything else is refused. */
    private static double[] figures(List<Double> arr, String what) {
        List<Double> l = arr == null ? List.of() : arr;
        double[] v = new double[l.size()];
        for (int i = 0; i < v.length; i++) {
            Double x = l.get(i);
            v[i] = x == null ? Double.NaN : x;
            if (!(v[i] >= 0) || Double.isInfinite(v[i])) {
                throw new PageJobException(PageJobException.Kind.PAGE_ERROR, "bad-result", what + "'s time is not a time: "
                        + (x == null ? "not a number" : x));
            }
        }
        return v;
    }
}
