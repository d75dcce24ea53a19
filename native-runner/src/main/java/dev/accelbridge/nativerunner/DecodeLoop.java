package dev.accelbridge.nativerunner;

import ai.onnxruntime.OnnxJavaType;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtEnvironment;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.DecoderLayout;
import dev.accelbridge.core.Generation;
import dev.accelbridge.core.GenerationCheck;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.UnsupportedModelException;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.FloatBuffer;
import java.nio.LongBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@link NativeGeneration}'s decode loop over one session (closing it closes what it made for an encoder): each step's
 * feeds made, the session run, the last position's logits read and their argmax taken, the present cache fed back as the
 * next step's past.
 */
final class DecodeLoop implements AutoCloseable {
    private final OrtEnvironment env;
    private final OrtSession session;
    private final DecoderLayout layout;
    private final long[] prompt;
    private final int newTokens;
    private OrtSession encoder;
    private Generation.Encoder encoderSpec;
    private OnnxTensor features;

    /**
     * One generation's tokens, its steps' times (the first from the generation's start: an encoder's run included), the
     * teacher-forced logits when kept, the cache's size at its end, and its encoder's own time (NaN without one).
     */
    record Generated(long[] tokens, double[] stepsMs, float[] logits, int vocab, long cacheBytes, double encoderMs) {
        double totalMs() {
            return Arrays.stream(stepsMs).sum();
        }
    }

    DecodeLoop(OrtEnvironment env, OrtSession session, DecoderLayout layout, long[] prompt, int newTokens) {
        this.env = env;
        this.session = session;
        this.layout = layout;
        this.prompt = prompt.clone();
        this.newTokens = newTokens;
    }

    /**
     * Runs {@code session} on {@code features} at the start of each generation, its states fed to every step. The features
     * tensor is made here, once, as the page makes its own before any generation: a generation's time starts at the run.
     */
    void encoder(OrtSession session, Generation.Encoder spec, NamedTensor features) throws OrtException {
        this.encoder = session;
        this.encoderSpec = spec;
        this.features = OnnxTensor.createTensor(env, FloatBuffer.wrap(features.toFloats()), features.shape());
    }

    /** Closes the features tensor {@link #encoder} made. */
    @Override
    public void close() {
        if (features != null) {
            features.close();
            features = null;
        }
    }

    /**
     * One greedy generation; with {@code forced} the token fed after each step is {@code forced}'s, not the argmax (the
     * teacher-forced pass), and with {@code keepLogits} each step's last-position logits are kept.
     */
    Generated generate(long[] forced, boolean keepLogits) throws OrtException {
        long[] out = new long[newTokens];
        double[] steps = new double[newTokens];
        float[] kept = null;
        int vocab = -1;
        Map<String, OnnxTensor> past = emptyCache();
        List<AutoCloseable> owned = new ArrayList<>(past.values());
        OrtSession.Result previous = null;
        long[] ids = prompt;
        int pos = 0;
        long cacheBytes = 0;
        double encoderMs = Double.NaN;
        OrtSession.Result encoded = null;
        OnnxTensor hidden = null;
        try {
            long t = System.nanoTime();
            if (encoder != null) {
                encoded = encoder.run(Map.of(encoderSpec.features(), features));
                hidden = hidden(encoded);
                encoderMs = (System.nanoTime() - t) / 1e6;
            }
            for (int s = 0; s < newTokens; s++) {
                int len = ids.length;
                int total = pos + len;
                List<OnnxTensor> made = new ArrayList<>();
                Map<String, OnnxTensor> feeds = feeds(ids, pos, total, past, hidden, made);
                OrtSession.Result res = session.run(feeds);
                float[] row = lastLogits(res, len);
                vocab = row.length;
                int next = GenerationCheck.argmax(row, 0, vocab);
                long now = System.nanoTime(); // the step ends when its token is known
                steps[s] = (now - t) / 1e6;
                t = now;
                out[s] = next;
                if (keepLogits) {
                    kept = kept == null ? new float[newTokens * vocab] : kept;
                    System.arraycopy(row, 0, kept, s * vocab, vocab);
                }
                for (OnnxTensor m : made) {
                    m.close();
                }
                if (previous != null) {
                    previous.close();
                }
                previous = res; // holds the present cache, the next step's past: closed once that step has run
                past = present(res);
                cacheBytes = bytes(past);
                ids = new long[] {forced != null ? forced[s] : next};
                pos = total;
            }
        } finally {
            release(previous, encoded, owned);
        }
        return new Generated(out, steps, kept, vocab, cacheBytes, encoderMs);
    }

    /** The encoder's states, which every step of the generation is fed. */
    private OnnxTensor hidden(OrtSession.Result encoded) {
        return (OnnxTensor) encoded.get(encoderSpec.output()).orElseThrow(() -> new UnsupportedModelException("The encoder '"
                + encoderSpec.model().name() + "' has no output '" + encoderSpec.output() + "'", "export the encoder with its "
                + "last_hidden_state", null));
    }

    /**
     * One step's feeds as the layout names them: the ids, the attention mask over all {@code total} positions, the
     * positions from {@code pos}, the past cache, the encoder's states, and whether the cache branch is taken. The tensors
     * made for the step go to {@code made}, closed once it has run.
     */
    private Map<String, OnnxTensor> feeds(long[] ids, int pos, int total, Map<String, OnnxTensor> past, OnnxTensor hidden,
                                          List<OnnxTensor> made) throws OrtException {
        int len = ids.length;
        Map<String, OnnxTensor> feeds = new LinkedHashMap<>();
        made.add(longs(feeds, layout.inputIds(), ids, len));
        if (layout.attentionMask() != null) {
            long[] mask = new long[total];
            Arrays.fill(mask, 1);
            made.add(longs(feeds, layout.attentionMask(), mask, total));
        }
        if (layout.positionIds() != null) {
            long[] p = new long[len];
            for (int i = 0; i < len; i++) {
                p[i] = pos + i;
            }
            made.add(longs(feeds, layout.positionIds(), p, len));
        }
        feeds.putAll(past);
        if (hidden != null && layout.encoderHidden() != null) {
            feeds.put(layout.encoderHidden(), hidden);
        }
        if (layout.useCacheBranch() != null) {
            OnnxTensor branch = OnnxTensor.createTensor(env, ByteBuffer.allocateDirect(1).order(ByteOrder.nativeOrder())
                    .put(0, (byte) (pos > 0 ? 1 : 0)), new long[] {1}, OnnxJavaType.BOOL);
            made.add(branch);
            feeds.put(layout.useCacheBranch(), branch);
        }
        return feeds;
    }

    /** The logits of the last of the step's {@code len} positions: the row the next token is taken from. */
    private float[] lastLogits(OrtSession.Result res, int len) throws OrtException {
        OnnxTensor logits = (OnnxTensor) res.get(layout.logits()).orElseThrow();
        long[] shape = logits.getInfo().getShape();
        int vocab = (int) shape[shape.length - 1];
        FloatBuffer fb = logits.getFloatBuffer();
        float[] row = new float[vocab];
        fb.position((len - 1) * vocab);
        fb.get(row);
        return row;
    }

    /** The step's present cache, by the past input each feeds. */
    private Map<String, OnnxTensor> present(OrtSession.Result res) {
        Map<String, OnnxTensor> past = new LinkedHashMap<>();
        for (DecoderLayout.Cache c : layout.cache()) {
            OnnxValue v = res.get(c.present()).orElseThrow();
            past.put(c.past(), (OnnxTensor) v);
        }
        return past;
    }

    /** The cache's size in bytes. */
    private long bytes(Map<String, OnnxTensor> past) {
        long cacheBytes = 0;
        for (OnnxTensor c : past.values()) {
            cacheBytes += c.getInfo().getNumElements() * layout.cacheType().byteSize();
        }
        return cacheBytes;
    }

    /** What a generation holds at its end, or where it failed: the last step's outputs, the encoder's, the first cache. */
    private static void release(OrtSession.Result previous, OrtSession.Result encoded, List<AutoCloseable> owned) {
        if (previous != null) {
            previous.close();
        }
        if (encoded != null) {
            encoded.close();
        }
        for (AutoCloseable c : owned) {
            try {
                c.close();
            } catch (Exception e) {
                // closing a tensor of ours does not fail
            }
        }
    }

    private OnnxTensor longs(Map<String, OnnxTensor> feeds, String name, long[] v, int len) throws OrtException {
        OnnxTensor t = OnnxTensor.createTensor(env, LongBuffer.wrap(v), new long[] {1, len});
        feeds.put(name, t);
        return t;
    }

    /** The first step's cache: {@code [1, kv_heads, 0, head_dim]} per cache input. */
    private Map<String, OnnxTensor> emptyCache() throws OrtException {
        Map<String, OnnxTensor> m = new LinkedHashMap<>();
        OnnxJavaType type = layout.cacheType() == DType.FLOAT16 ? OnnxJavaType.FLOAT16 : OnnxJavaType.FLOAT;
        for (DecoderLayout.Cache c : layout.cache()) {
            m.put(c.past(), OnnxTensor.createTensor(env, ByteBuffer.allocateDirect(0).order(ByteOrder.nativeOrder()),
                    new long[] {1, layout.kvHeads(), 0, layout.headDim()}, type));
        }
        return m;
    }
}
