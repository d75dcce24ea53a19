package dev.accelbridge.core;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a decoder with a KV cache is fed, read from its graph's names as Hugging Face exporters and transformers.js write
 * them: {@code input_ids}, {@code attention_mask} (past and new positions), {@code position_ids}, and per layer
 * {@code past_key_values.N.key|value} in, {@code present.N.key|value} out, beside {@code logits}. An encoder-decoder's
 * merged decoder (Optimum's {@code decoder_model_merged.onnx} for Whisper) is fed its encoder's states as
 * {@code encoder_hidden_states}, a self-attention cache {@code past_key_values.N.decoder.key|value} and a cross-attention
 * one {@code past_key_values.N.encoder.key|value} (empty at the first step, then what the first step gave), and
 * {@code use_cache_branch} (false at the first step, true after), the condition of its {@code If} between the graph without
 * a past and the graph with one. Both sides' decode loops (the page's and the native one) feed a model by this, so the
 * naming is known in one place.
 *
 * @param inputIds      the token ids input, {@code [batch, sequence]} int64
 * @param attentionMask the mask over past and new positions, or null when the model has none
 * @param positionIds   the positions of the new tokens, or null when the model has none
 * @param logits        the logits output, {@code [batch, sequence, vocab]}
 * @param cache         each cache input with the output that feeds it on the next step, layer by layer, key before value
 * @param kvHeads       the cache's heads (its second dimension)
 * @param headDim       the cache's last dimension
 * @param cacheType     the cache's element type
 * @param vocab         the logits' last dimension, or -1 when the graph leaves it symbolic
 * @param encoderHidden the input fed the encoder's states ({@code encoder_hidden_states}), or null for a decoder alone
 * @param useCacheBranch the merged decoder's branch condition ({@code use_cache_branch}, bool {@code [1]}), or null
 */
public record DecoderLayout(String inputIds, String attentionMask, String positionIds, String logits, List<Cache> cache,
                            int kvHeads, int headDim, DType cacheType, int vocab, String encoderHidden, String useCacheBranch) {
    private static final Pattern PAST = Pattern.compile("past_key_values\\.(\\d+)\\.(?:(decoder|encoder)\\.)?(key|value)");
    /** The encoder's states, as Optimum names the merged decoder's input. */
    public static final String ENCODER_HIDDEN = "encoder_hidden_states";
    /** The merged decoder's branch condition. */
    public static final String USE_CACHE_BRANCH = "use_cache_branch";

    /** One cache tensor: fed as {@code past}, given back as {@code present}. */
    public record Cache(String past, String present) {
    }

    public DecoderLayout {
        cache = List.copyOf(cache);
    }

    /** A decoder alone. */
    public DecoderLayout(String inputIds, String attentionMask, String positionIds, String logits, List<Cache> cache, int kvHeads,
                         int headDim, DType cacheType, int vocab) {
        this(inputIds, attentionMask, positionIds, logits, cache, kvHeads, headDim, cacheType, vocab, null, null);
    }

    /** Whether {@code spec} looks like a decoder with a KV cache (it has a {@code past_key_values.N.*} input). */
    public static boolean looksLikeDecoder(ModelSpec spec) {
        return spec.inputs().stream().anyMatch(t -> PAST.matcher(t.name()).matches());
    }

    /**
     * The layout of {@code spec}.
     *
     * @throws AccelbridgeException naming what the graph lacks (an input, a cache's output, a symbolic cache width)
     */
    public static DecoderLayout of(ModelSpec spec) {
        Map<String, TensorSpec> in = new java.util.LinkedHashMap<>();
        spec.inputs().forEach(t -> in.put(t.name(), t));
        Map<String, TensorSpec> out = new java.util.LinkedHashMap<>();
        spec.outputs().forEach(t -> out.put(t.name(), t));
        List<String> missing = new ArrayList<>();
        if (!in.containsKey("input_ids")) {
            missing.add("an input 'input_ids'");
        }
        if (!out.containsKey("logits")) {
            missing.add("an output 'logits'");
        }
        TreeMap<Integer, List<Cache>> layers = new TreeMap<>();
        TensorSpec first = null;
        for (TensorSpec t : spec.inputs()) {
            Matcher m = PAST.matcher(t.name());
            if (!m.matches()) {
                continue;
            }
            String present = "present." + m.group(1) + "." + (m.group(2) == null ? "" : m.group(2) + ".") + m.group(3);
            if (!out.containsKey(present)) {
                missing.add("an output '" + present + "' for the input '" + t.name() + "'");
                continue;
            }
            first = first == null || !"encoder".equals(m.group(2)) && first.name().contains(".encoder.") ? t : first;
            List<Cache> l = layers.computeIfAbsent(Integer.parseInt(m.group(1)), k -> new ArrayList<>());
            l.add(new Cache(t.name(), present));
            // the self-attention cache before the cross-attention one, key before value
            l.sort(java.util.Comparator.comparing((Cache c) -> c.past().contains(".encoder.")).thenComparing(c -> !c.past().endsWith(".key")));
        }
        if (first == null) {
            missing.add("inputs 'past_key_values.N.key' / 'past_key_values.N.value'");
        }
        if (first != null && (first.shape().length != 4 || first.shape()[1] < 1 || first.shape()[3] < 1)) {
            missing.add("a cache of shape [batch, heads, past, head_dim] with fixed heads and head_dim (" + first + ")");
        }
        for (String name : in.keySet()) {
            if (!name.equals("input_ids") && !name.equals("attention_mask") && !name.equals("position_ids") && !PAST.matcher(name).matches()
                    && !name.equals(ENCODER_HIDDEN) && !name.equals(USE_CACHE_BRANCH)) {
                missing.add("a way to feed the input '" + name + "' (a decoder is fed input_ids, attention_mask, position_ids and its cache; "
                        + "a merged encoder-decoder's also encoder_hidden_states and use_cache_branch)");
            }
        }
        if (!missing.isEmpty()) {
            throw new AccelbridgeException("Model '" + spec.name() + "' cannot be run as a decoder with a KV cache: it lacks "
                    + String.join("; ", missing), "export it with past_key_values.N.key|value inputs and present.N.key|value outputs"
                    + " (as Hugging Face Optimum does), or run it without --generate");
        }
        List<Cache> cache = new ArrayList<>();
        layers.values().forEach(cache::addAll);
        long[] logitsShape = out.get("logits").shape();
        long v = logitsShape.length == 0 ? -1 : logitsShape[logitsShape.length - 1];
        return new DecoderLayout("input_ids", in.containsKey("attention_mask") ? "attention_mask" : null,
                in.containsKey("position_ids") ? "position_ids" : null, "logits", cache, (int) first.shape()[1],
                (int) first.shape()[3], first.dtype(), v > 0 && v <= Integer.MAX_VALUE ? (int) v : -1,
                in.containsKey(ENCODER_HIDDEN) ? ENCODER_HIDDEN : null, in.containsKey(USE_CACHE_BRANCH) ? USE_CACHE_BRANCH : null);
    }

    /** The layout when {@code spec} is a decoder, else empty (a model that only looks like one still throws from {@link #of}). */
    public static Optional<DecoderLayout> ofDecoder(ModelSpec spec) {
        return looksLikeDecoder(spec) ? Optional.of(of(spec)) : Optional.empty();
    }

    /** The first step's cache: {@code [1, kv_heads, 0, head_dim]} per cache input. */
    public List<NamedTensor> emptyCache() {
        List<NamedTensor> out = new ArrayList<>();
        for (Cache c : cache) {
            out.add(new NamedTensor(c.past(), cacheType, new long[] {1, kvHeads, 0, headDim}, new byte[0]));
        }
        return out;
    }

    /** One step's feeds, batch 1: {@code ids} after {@code pastLength} cached positions ({@code past}), every position attended. */
    public List<NamedTensor> feeds(long[] ids, int pastLength, List<NamedTensor> past) {
        return feeds(ids, pastLength, past, null);
    }

    /**
     * Same, for a merged encoder-decoder with the encoder's states {@code hidden} (fed as {@link #encoderHidden}; null for a
     * decoder alone) and {@link #useCacheBranch} true once there is a past.
     */
    public List<NamedTensor> feeds(long[] ids, int pastLength, List<NamedTensor> past, NamedTensor hidden) {
        List<NamedTensor> in = new ArrayList<>();
        in.add(NamedTensor.ofLongs(inputIds, new long[] {1, ids.length}, ids));
        if (attentionMask != null) {
            long[] mask = new long[pastLength + ids.length];
            java.util.Arrays.fill(mask, 1);
            in.add(NamedTensor.ofLongs(attentionMask, new long[] {1, mask.length}, mask));
        }
        if (positionIds != null) {
            long[] pos = new long[ids.length];
            for (int i = 0; i < pos.length; i++) {
                pos[i] = pastLength + i;
            }
            in.add(NamedTensor.ofLongs(positionIds, new long[] {1, pos.length}, pos));
        }
        if (encoderHidden != null && hidden != null) {
            in.add(hidden.withName(encoderHidden));
        }
        in.addAll(past);
        if (useCacheBranch != null) {
            in.add(new NamedTensor(useCacheBranch, DType.BOOL, new long[] {1}, new byte[] {(byte) (pastLength > 0 ? 1 : 0)}));
        }
        return in;
    }

    /** The bytes of the whole cache at {@code length} positions for {@code batch} sequences. */
    public long cacheBytes(int batch, long length) {
        return (long) batch * cache.size() * kvHeads * headDim * length * cacheType.byteSize();
    }
}
