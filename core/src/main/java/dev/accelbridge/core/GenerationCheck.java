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
     * @param parity      the teacher-forced logits against the reference's; null for the reference's own check
     * @param wrong       true for WRONG_OUTPUT
     * @param reason      why, as a sentence; null for a plain pass
     * @param generations the generations checked
     * @param verified    those that gave exactly the tokens checked against
     * @param topOneAgree the teacher-forced steps whose top-1 token is the reference's; -1 for the reference's own check,
     *                    which has nothing to agree with
     * @param check       what the tokens were checked against
     */
    public record Verdict(Parity parity, boolean wrong, String reason, int generations, int verified, int topOneAgree, TokenCheck check) {
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
        Divergences d = Divergences.of(refTokens.toLongs(), tokens.toLongs(), steps, r, vocab, tol);
        String agreement = String.format(Locale.ROOT, "top-1 agreed at %d of %d teacher-forced steps; tokens verified in %d of %d generations",
                agree, steps, d.same(), d.generations());
        if (firstBad >= 0) {
            return new Verdict(parity, true, String.format(Locale.ROOT,
                    "teacher-forced logits left the tolerance at %s: max abs err %.3g there (%s); %s", step(firstBad, promptTokens), worst,
                    parity.describe(), agreement), d.generations(), d.same(), agree, TokenCheck.REFERENCE);
        }
        String judged = d.judged(promptTokens, "the reference's", "every teacher-forced step within tolerance",
                "though every teacher-forced step stayed within tolerance and the reference's");
        return new Verdict(parity, d.clear() != null, judged == null ? null : judged + "; " + agreement, d.generations(), d.same(), agree,
                TokenCheck.REFERENCE);
    }

    /**
     * The reference's own check, judged as a backend's generations are: every one of its generations against its first
     * ("repeated", not "verified": there is nothing independent to verify against). A generation that takes another token
     * where its own logits (the teacher-forced pass, fed the first generation's tokens) hold the two within
     * {@code toleranceFor}'s tolerance is a near-tie; with a clear margin it is WRONG_OUTPUT, a runtime that does not repeat
     * itself.
     */
    public static Verdict repeatCheck(List<NamedTensor> outputs, Function<DType, Tolerance> toleranceFor, int promptTokens) {
        NamedTensor tokens = named(outputs, Generation.TOKENS, "reference");
        NamedTensor logits = named(outputs, Generation.TEACHER_LOGITS, "reference");
        int steps = (int) tokens.shape()[1];
        long[] t = tokens.toLongs();
        Divergences d = Divergences.of(java.util.Arrays.copyOf(t, steps), t, steps, logits.toFloats(), (int) logits.shape()[1],
                toleranceFor.apply(logits.dtype()));
        String judged = d.judged(promptTokens, "its own", "the first generation's token and this one within tolerance",
                "though it is the same runtime on the same input, and its own");
        String repeated = String.format(Locale.ROOT, "tokens repeated in %d of %d generations (the reference: each against its first)",
                d.same(), d.generations());
        return new Verdict(null, d.clear() != null, judged == null ? null : judged + "; " + repeated, d.generations(), d.same(), -1,
                TokenCheck.OWN_FIRST);
    }

    /** One generation's first token that differs from the tokens checked against, and the logit gap there. */
    private record Divergence(int generation, int step, long took, long expected, double gap, boolean nearTie) {
        String where(int generations, int promptTokens) {
            return String.format(Locale.ROOT, "generation %d of %d took token %d instead of %d at %s", generation + 1, generations, took,
                    expected, GenerationCheck.step(step, promptTokens));
        }
    }

    /**
     * Every generation's first divergence from the tokens checked against, each judged: a near-tie when the logits there
     * hold the token checked against and the token taken within the tolerance of each other, clear otherwise. One near-tie
     * never hides a clear divergence in another generation.
     */
    private record Divergences(int generations, int same, List<Divergence> all) {
        static Divergences of(long[] expected, long[] got, int steps, float[] logits, int vocab, Tolerance tol) {
            int generations = got.length / steps;
            int same = 0;
            List<Divergence> all = new java.util.ArrayList<>();
            for (int g = 0; g < generations; g++) {
                int s = firstDifference(expected, 0, got, g * steps, steps);
                if (s < 0) {
                    same++;
                    continue;
                }
                long took = got[g * steps + s];
                double chosen = logits[s * vocab + (int) expected[s]];
                double taken = logits[s * vocab + (int) Math.max(0, Math.min(vocab - 1, took))];
                all.add(new Divergence(g, s, took, expected[s], chosen - taken, tol.accepts(chosen, taken)));
            }
            return new Divergences(generations, same, all);
        }

        /** The first divergence with a clear margin, or null. */
        Divergence clear() {
            return all.stream().filter(d -> !d.nearTie()).findFirst().orElse(null);
        }

        /** The sentence for these divergences ({@code whose} logits, what held); null when every generation gave the tokens. */
        String judged(int promptTokens, String whose, String held, String clearPrefix) {
            Divergence c = clear();
            long ties = all.stream().filter(Divergence::nearTie).count();
            if (c != null) {
                return String.format(Locale.ROOT, "generations do not repeat: %s %s margin there is %.3g, not a near-tie%s",
                        c.where(generations, promptTokens), clearPrefix, c.gap(), ties == 0 ? ""
                                : String.format(Locale.ROOT, " (and %d near-tie%s)", ties, ties == 1 ? "" : "s"));
            }
            if (all.isEmpty()) {
                return null;
            }
            Divergence first = all.get(0);
            return String.format(Locale.ROOT, "tokens not %s: %s, a near-tie (%s logits of the two tokens differ by %.3g, within the "
                    + "tolerance; %s)%s", whose.equals("its own") ? "repeated" : "verified", first.where(generations, promptTokens), whose,
                    first.gap(), held, all.size() == 1 ? "" : String.format(Locale.ROOT, "; each of the %d divergences a near-tie", all.size()));
        }
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
