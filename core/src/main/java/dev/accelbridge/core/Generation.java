package dev.accelbridge.core;

import java.util.Arrays;

/**
 * A generation case's {@link Scenario}: greedy decoding of {@code newTokens} tokens after the case's
 * {@code input_ids} (the prompt, batch 1), the KV cache fed back each step as the {@link DecoderLayout} says. Both sides
 * also run it teacher-forced, fed {@code teacher} (the reference's tokens) instead of their own, and return the logits of
 * every step, which is what the verdict compares ({@link GenerationCheck}).
 *
 * @param newTokens the tokens each generation makes
 * @param layout    how the decoder is fed
 * @param teacher   the reference's tokens to feed in the teacher-forced pass; null when this run is the reference (it
 *                  feeds its own first generation's)
 * @param encoder   an encoder-decoder's encoder (speech-to-text: log-mel features in, the states the decoder attends to out),
 *                  run once at the start of each generation; null for a decoder alone
 */
public record Generation(int newTokens, DecoderLayout layout, long[] teacher, Encoder encoder) implements Scenario {
    /**
     * The encoder of an encoder-decoder model, a model file of its own as exporters write it ({@code encoder_model.onnx}
     * beside {@code decoder_model_merged.onnx}).
     *
     * @param model    the encoder
     * @param features its input, fed from the case's input of that name ({@code input_features})
     * @param output   its output the decoder is fed as {@link DecoderLayout#encoderHidden()} ({@code last_hidden_state})
     */
    public record Encoder(ModelSpec model, String features, String output) {
        /** {@code model} named as Optimum exports Whisper's encoder: {@code input_features} in, {@code last_hidden_state} out. */
        public static Encoder of(ModelSpec model) {
            return new Encoder(model, "input_features", "last_hidden_state");
        }
    }

    /** The output holding every generation's tokens, {@code [generations, newTokens]} int64, the cold one first. */
    public static final String TOKENS = "tokens";
    /** The output holding the teacher-forced pass's logits, {@code [newTokens, vocab]} float32, one row per step. */
    public static final String TEACHER_LOGITS = "teacher_logits";

    public Generation {
        if (newTokens < 1 || newTokens > ScenarioId.MAX_TOKENS) {
            throw new AccelbridgeException("new tokens must be 1.." + ScenarioId.MAX_TOKENS + ", got " + newTokens, "e.g. --new-tokens 32");
        }
        if (teacher != null && teacher.length != newTokens) {
            throw new IllegalArgumentException(teacher.length + " teacher tokens for " + newTokens + " new tokens");
        }
        teacher = teacher == null ? null : teacher.clone();
        if (encoder != null && layout.encoderHidden() == null) {
            throw new AccelbridgeException("An encoder's states have nowhere to go: the decoder has no encoder_hidden_states input",
                    "give the merged decoder an encoder only when it attends to one");
        }
    }

    /** A decoder alone. */
    public Generation(int newTokens, DecoderLayout layout, long[] teacher) {
        this(newTokens, layout, teacher, null);
    }

    /** A generation judged against a reference that has not run yet. */
    public static Generation of(int newTokens, DecoderLayout layout) {
        return new Generation(newTokens, layout, null);
    }

    /** The same generation, teacher-forced with {@code tokens}. */
    public Generation withTeacher(long[] tokens) {
        return new Generation(newTokens, layout, tokens, encoder);
    }

    /** The same generation after {@code encoder}'s states. */
    public Generation withEncoder(Encoder e) {
        return new Generation(newTokens, layout, teacher, e);
    }

    /** The same generation making {@code n} tokens (not teacher-forced yet). */
    public Generation withNewTokens(int n) {
        return new Generation(n, layout, null, encoder);
    }

    /** {@code generate pP nN}: the prompt is the length of {@code inputs}' {@link DecoderLayout#inputIds() input ids}. */
    @Override
    public ScenarioId id(java.util.List<NamedTensor> inputs) {
        int prompt = inputs.stream().filter(t -> t.name().equals(layout.inputIds())).findFirst()
                .map(t -> (int) t.shape()[t.shape().length - 1]).orElse(0);
        return ScenarioId.generate(prompt, newTokens);
    }

    /** False: a generation decodes one prompt. */
    @Override
    public boolean batchable() {
        return false;
    }

    /** The present cache, fed back as the next step's past. */
    @Override
    public java.util.List<String> fedBack() {
        return layout.cache().stream().map(DecoderLayout.Cache::present).toList();
    }

    /** This many tokens, fed as {@code model}'s graph says (an fp16 decoder's cache is fp16), its encoder not carried over. */
    @Override
    public Scenario on(ModelSpec model) {
        return new Generation(newTokens, DecoderLayout.of(model), null);
    }

    @Override
    public <R> R accept(Cases<R> cases) {
        return cases.generation(this);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Generation g && newTokens == g.newTokens && layout.equals(g.layout) && Arrays.equals(teacher, g.teacher)
                && java.util.Objects.equals(encoder, g.encoder);
    }

    @Override
    public int hashCode() {
        return newTokens * 31 + layout.hashCode();
    }

    @Override
    public String toString() {
        return "Generation[newTokens=" + newTokens + ", teacher=" + (teacher == null ? "none" : teacher.length + " tokens")
                + (encoder == null ? "" : ", encoder " + encoder.model().name()) + "]";
    }
}
