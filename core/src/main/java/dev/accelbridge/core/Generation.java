package dev.accelbridge.core;

import java.util.Arrays;

/**
 * A generation case's own part of a {@link ModelCase}: greedy decoding of {@code newTokens} tokens after the case's
 * {@code input_ids} (the prompt, batch 1), the KV cache fed back each step as the {@link DecoderLayout} says. Both sides
 * also run it teacher-forced, fed {@code teacher} (the reference's tokens) instead of their own, and return the logits of
 * every step, which is what the verdict compares ({@link GenerationCheck}).
 *
 * @param newTokens the tokens each generation makes
 * @param layout    how the decoder is fed
 * @param teacher   the reference's tokens to feed in the teacher-forced pass; null when this run is the reference (it
 *                  feeds its own first generation's)
 */
public record Generation(int newTokens, DecoderLayout layout, long[] teacher) {
    /** The output holding every generation's tokens, {@code [generations, newTokens]} int64, the cold one first. */
    public static final String TOKENS = "tokens";
    /** The output holding the teacher-forced pass's logits, {@code [newTokens, vocab]} float32, one row per step. */
    public static final String TEACHER_LOGITS = "teacher_logits";

    public Generation {
        if (newTokens < 1 || newTokens > Scenario.MAX_TOKENS) {
            throw new AccelbridgeException("new tokens must be 1.." + Scenario.MAX_TOKENS + ", got " + newTokens, "e.g. --new-tokens 32");
        }
        if (teacher != null && teacher.length != newTokens) {
            throw new IllegalArgumentException(teacher.length + " teacher tokens for " + newTokens + " new tokens");
        }
        teacher = teacher == null ? null : teacher.clone();
    }

    /** A generation judged against a reference that has not run yet. */
    public static Generation of(int newTokens, DecoderLayout layout) {
        return new Generation(newTokens, layout, null);
    }

    /** The same generation, teacher-forced with {@code tokens}. */
    public Generation withTeacher(long[] tokens) {
        return new Generation(newTokens, layout, tokens);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Generation g && newTokens == g.newTokens && layout.equals(g.layout) && Arrays.equals(teacher, g.teacher);
    }

    @Override
    public int hashCode() {
        return newTokens * 31 + layout.hashCode();
    }

    @Override
    public String toString() {
        return "Generation[newTokens=" + newTokens + ", teacher=" + (teacher == null ? "none" : teacher.length + " tokens") + "]";
    }
}
