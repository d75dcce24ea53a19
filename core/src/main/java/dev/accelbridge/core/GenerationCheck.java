package dev.accelbridge.core;

import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * The verdict of a generation case against its reference, MLPerf Client's way and more: (a) every generation's greedy
 * tokens (cold, warm-up, timed) must equal the reference's ("tokens verified"); (b) the teacher-forced pass, where both
 * sides were fed the reference's tokens, must give logits within the backend's tolerance at every step. A step outside
 * the tolerance is WRONG_OUTPUT naming that token and the cache depth it was computed at. A free-running divergence
 * where every teacher-forced step stayed within tolerance and the reference's own top two logits there lie within the
 * tolerance of each other is a near-tie, said with its logit gap, and not a defect; a divergence with a clear margin is
 * (the generations do not repeat).
 */
public final class GenerationCheck {
    private GenerationCheck() {
    }

    /**
     * The verdict.
     *
     * @param parity      the teacher-forced logits against the reference's
     * @param wrong       true for WRONG_OUTPUT
     * @param reason      why, as a sentence; null for a plain pass
     * @param generations the generations checked
     * @param verified    those that gave exactly the reference's tokens
     * @param topOneAgree the teacher-forced steps whose top-1 token is the reference's
     */
    public record Verdict(Parity parity, boolean wrong, String reason, int generations, int verified, int topOneAgree) {
    }

    /**
     * Judges {@code actual} against {@code reference} (each: {@link Generation#TOKENS} and {@link Generation#TEACHER_LOGITS}).
     *
     * @param promptTokens the prompt's length, to name a step's cache depth
     * @throws AccelbridgeException when either side lacks an output or their shapes differ (the caller's shape finding)
     */
    public static Verdict judge(List<NamedTensor> reference, List<NamedTensor> actual, Function<DType, Tolerance> toleranceFor,
                                String against, int promptTokens) {
        NamedTensor refTokens = named(reference, Generation.TOKENS, "reference");
        NamedTensor refLogits = named(reference, Generation.TEACHER_LOGITS, "reference");
        NamedTensor tokens = named(actual, Generation.TOKENS, "backend");
        NamedTensor logits = named(actual, Generation.TEACHER_LOGITS, "backend");
        Parity parity = Parity.compare(List.of(refLogits), List.of(logits), toleranceFor, against + ", teacher-forced logits");
        int steps = (int) refLogits.shape()[0];
        int vocab = (int) refLogits.shape()[1];
        if (refTokens.shape()[1] != steps || tokens.shape().length != 2 || tokens.shape()[1] != steps) {
            throw new AccelbridgeException("Generated tokens have shape " + java.util.Arrays.toString(tokens.shape()) + ", the reference's "
                    + java.util.Arrays.toString(refTokens.shape()), null);
        }
        float[] r = refLogits.toFloats();
        float[] a = logits.toFloats();
        Tolerance tol = toleranceFor.apply(refLogits.dtype());
        int firstBad = -1;
        double worst = 0;
        int agree = 0;
        for (int s = 0; s < steps; s++) {
            double used = 0;
            double maxAbs = 0;
            for (int v = 0; v < vocab; v++) {
                int i = s * vocab + v;
                used = Math.max(used, tol.used(r[i], a[i]));
                maxAbs = Math.max(maxAbs, Math.abs((double) r[i] - a[i]));
            }
            if (used > 1 && firstBad < 0) {
                firstBad = s;
                worst = maxAbs;
            }
            if (argmax(r, s, vocab) == argmax(a, s, vocab)) {
                agree++;
            }
        }
        long[] ref = refTokens.toLongs();
        long[] got = tokens.toLongs();
        int generations = (int) tokens.shape()[0];
        int verified = 0;
        int divergedGen = -1;
        int divergedAt = -1;
        for (int g = 0; g < generations; g++) {
            int d = firstDifference(ref, 0, got, g * steps, steps);
            if (d < 0) {
                verified++;
            } else if (divergedGen < 0) {
                divergedGen = g;
                divergedAt = d;
            }
        }
        String agreement = String.format(Locale.ROOT, "top-1 agreed at %d of %d teacher-forced steps; tokens verified in %d of %d generations",
                agree, steps, verified, generations);
        if (firstBad >= 0) {
            return new Verdict(parity, true, String.format(Locale.ROOT,
                    "teacher-forced logits left the tolerance at %s: max abs err %.3g there (%s); %s", step(firstBad, promptTokens), worst,
                    parity.describe(), agreement), generations, verified, agree);
        }
        if (divergedGen < 0) {
            return new Verdict(parity, false, null, generations, verified, agree);
        }
        // every teacher-forced step within tolerance: the divergence is a near-tie when the reference's own choice there is
        // within the tolerance of the token taken instead
        int s = divergedAt;
        double chosen = r[s * vocab + (int) ref[s]];
        double taken = r[s * vocab + (int) Math.max(0, Math.min(vocab - 1, got[divergedGen * steps + s]))];
        double gap = chosen - taken;
        String where = String.format(Locale.ROOT, "generation %d of %d took token %d instead of %d at %s", divergedGen + 1, generations,
                got[divergedGen * steps + s], ref[s], step(s, promptTokens));
        if (tol.accepts(chosen, taken)) {
            return new Verdict(parity, false, String.format(Locale.ROOT, "tokens not verified: %s, a near-tie (the reference's logits "
                    + "of the two tokens differ by %.3g, within the tolerance; every teacher-forced step within tolerance); %s", where, gap,
                    agreement), generations, verified, agree);
        }
        return new Verdict(parity, true, String.format(Locale.ROOT, "generations do not repeat: %s though every teacher-forced step "
                + "stayed within tolerance and the reference's margin there is %.3g, not a near-tie; %s", where, gap, agreement),
                generations, verified, agree);
    }

    /**
     * The reference's own check: every one of its generations against its first, so a runtime whose greedy tokens change
     * from one generation to the next is seen on the reference row too.
     */
    public static Verdict selfCheck(List<NamedTensor> outputs) {
        NamedTensor tokens = named(outputs, Generation.TOKENS, "reference");
        int steps = (int) tokens.shape()[1];
        int generations = (int) tokens.shape()[0];
        long[] t = tokens.toLongs();
        int verified = 0;
        for (int g = 0; g < generations; g++) {
            verified += firstDifference(t, 0, t, g * steps, steps) < 0 ? 1 : 0;
        }
        return new Verdict(null, false, verified == generations ? null : String.format(Locale.ROOT,
                "tokens not repeated: %d of %d generations gave the first generation's tokens", verified, generations),
                generations, verified, steps);
    }

    /** "token 10 of 32 (past length 17)": a step, counted from 1, with the cache depth it was computed at. */
    public static String step(int s, int promptTokens) {
        return s == 0 ? "token 1 (the prompt's prefill, past length 0)"
                : String.format(Locale.ROOT, "token %d (past length %d)", s + 1, promptTokens + s - 1);
    }

    /**
     * The cache depth a verdict's reason names for its first bad token ({@link #step}'s "past length N"), so the step can be
     * made again on its own (a bisection's case); empty when the reason names none.
     */
    public static java.util.OptionalInt pastLengthIn(String reason) {
        java.util.regex.Matcher m = reason == null ? null
                : java.util.regex.Pattern.compile("at token \\d+ \\((?:the prompt's prefill, )?past length (\\d+)\\)").matcher(reason);
        return m != null && m.find() ? java.util.OptionalInt.of(Integer.parseInt(m.group(1))) : java.util.OptionalInt.empty();
    }

    private static int firstDifference(long[] a, int aFrom, long[] b, int bFrom, int n) {
        for (int i = 0; i < n; i++) {
            if (a[aFrom + i] != b[bFrom + i]) {
                return i;
            }
        }
        return -1;
    }

    /** The index of the largest value of row {@code s}, the first on a tie (what both decode loops take). */
    public static int argmax(float[] rows, int s, int width) {
        int best = 0;
        for (int v = 1; v < width; v++) {
            if (rows[s * width + v] > rows[s * width + best]) {
                best = v;
            }
        }
        return best;
    }

    private static NamedTensor named(List<NamedTensor> tensors, String name, String side) {
        return tensors.stream().filter(t -> t.name().equals(name)).findFirst().orElseThrow(() -> new AccelbridgeException(
                "The " + side + " gave no output '" + name + "' for a generation case", null));
    }
}
