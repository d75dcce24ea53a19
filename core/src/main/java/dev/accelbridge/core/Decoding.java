package dev.accelbridge.core;

import java.util.Arrays;
import java.util.OptionalLong;

/**
 * A generation case's figures, each measured where the decoder ran (in the page, or around the native call), a step's
 * time ending when its token is known (logits read, argmax done). MLPerf Client's definitions: time to first token (TTFT)
 * is the first token's time from the start of the generation (the prompt's prefill and its argmax); the inter-token
 * latencies are the times of the tokens after it; tokens per second is {@code 1000 / mean inter-token latency}, none
 * when fewer than two tokens came out.
 *
 * @param promptTokens the prompt's length
 * @param newTokens    the tokens each generation made
 * @param ttftMs       each timed generation's TTFT, in order
 * @param itlMs        every inter-token latency of the timed generations, generation after generation
 * @param coldTtftMs   the first generation after the session was made: its TTFT (shader compilation, first allocations)
 * @param coldTotalMs  and its whole time
 * @param kvCacheBytes the KV cache's size after the last token; empty when the runtime did not say (unknown, never 0)
 * @param generations  the generations whose tokens were checked (cold, warm-up and timed); 0 before the verdict
 * @param verified     how many of them gave exactly the tokens they were checked against
 * @param check        what they were checked against: the native CPU reference ("verified"), the reference's own first
 *                     generation ("repeated"), or nothing
 * @param encoderMs    an encoder-decoder's (speech-to-text): each timed generation's encoder run, which its TTFT includes
 *                     (the first token waits for it); empty for a decoder alone
 * @param teacherMs    the teacher-forced pass's time (one more generation fed the reference's tokens, whose logits the
 *                     verdict reads): inference the method asks for, never a figure; NaN when not measured
 */
public record Decoding(int promptTokens, int newTokens, double[] ttftMs, double[] itlMs, double coldTtftMs, double coldTotalMs,
                       OptionalLong kvCacheBytes, int generations, int verified, TokenCheck check, double[] encoderMs,
                       double teacherMs) implements ScenarioFigures {
    public Decoding {
        ttftMs = ttftMs.clone();
        itlMs = itlMs.clone();
        encoderMs = encoderMs == null ? new double[0] : encoderMs.clone();
        kvCacheBytes = kvCacheBytes == null ? OptionalLong.empty() : kvCacheBytes;
        check = check == null ? TokenCheck.NONE : check;
    }

    /** These figures with each timed generation's encoder time. */
    public Decoding withEncoder(double[] encoderMs) {
        return new Decoding(promptTokens, newTokens, ttftMs, itlMs, coldTtftMs, coldTotalMs, kvCacheBytes, generations, verified, check,
                encoderMs, teacherMs);
    }

    /** These figures with the teacher-forced pass's time. */
    public Decoding withTeacherMs(double ms) {
        return new Decoding(promptTokens, newTokens, ttftMs, itlMs, coldTtftMs, coldTotalMs, kvCacheBytes, generations, verified, check,
                encoderMs, ms);
    }

    /** The median encoder time; NaN for a decoder alone. */
    public double encoderP50Ms() {
        return encoderMs.length == 0 ? Double.NaN : percentile(encoderMs, 50);
    }

    /**
     * The figures of timed generations given as their steps' times: {@code steps[g][0]} the TTFT of generation {@code g},
     * the rest its inter-token latencies.
     */
    public static Decoding of(int promptTokens, int newTokens, double[][] steps, double[] coldSteps, OptionalLong kvCacheBytes) {
        double[] ttft = new double[steps.length];
        double[] itl = new double[Arrays.stream(steps).mapToInt(s -> Math.max(0, s.length - 1)).sum()];
        int k = 0;
        for (int g = 0; g < steps.length; g++) {
            ttft[g] = steps[g].length == 0 ? Double.NaN : steps[g][0];
            for (int i = 1; i < steps[g].length; i++) {
                itl[k++] = steps[g][i];
            }
        }
        return new Decoding(promptTokens, newTokens, ttft, itl, coldSteps.length == 0 ? Double.NaN : coldSteps[0],
                Arrays.stream(coldSteps).sum(), kvCacheBytes, 0, 0, TokenCheck.NONE, new double[0], Double.NaN);
    }

    /** These figures with the verdict's count of generations that gave the tokens they were checked against. */
    public Decoding withVerified(TokenCheck check, int generations, int verified) {
        return new Decoding(promptTokens, newTokens, ttftMs, itlMs, coldTtftMs, coldTotalMs, kvCacheBytes, generations, verified, check,
                encoderMs, teacherMs);
    }

    /** The median TTFT. */
    public double ttftP50Ms() {
        return percentile(ttftMs, 50);
    }

    /** The median TTFT's 95 % interval, null below the samples it needs. */
    public Interval ttftCi() {
        return SampleStats.quantileCi(sorted(ttftMs), 0.5);
    }

    /** The median inter-token latency. */
    public double itlP50Ms() {
        return percentile(itlMs, 50);
    }

    /** The 90th percentile inter-token latency, NaN below the samples it needs. */
    public double itlP90Ms() {
        return SampleStats.supports(itlMs.length, 0.9) ? percentile(itlMs, 90) : Double.NaN;
    }

    /** Tokens per second, {@code 1000 / mean inter-token latency}; NaN when fewer than two tokens came out. */
    public double tokensPerSec() {
        if (newTokens < 2 || itlMs.length == 0) {
            return Double.NaN;
        }
        double mean = Arrays.stream(itlMs).average().orElse(Double.NaN);
        return mean > 0 ? 1000.0 / mean : Double.NaN;
    }

    /**
     * The 95 % interval of {@link #tokensPerSec()}: {@code 1000 /} the bootstrap interval of the mean inter-token latency
     * ({@link SampleStats#meanRatioCi}); null below the samples it needs.
     */
    public Interval tokensPerSecCi() {
        return Bootstraps.once(new Bootstraps.Rate(this), () -> {
            Interval m = Double.isFinite(tokensPerSec()) ? SampleStats.meanRatioCi(null, itlMs) : null;
            return m == null ? null : new Interval(1000 / m.hi(), 1000 / m.lo());
        });
    }

    /**
     * This generation's tokens per second over {@code base}'s, and its bootstrap interval from the two sides' inter-token
     * latencies ({@code {ratio, lo, hi}}, lo and hi NaN without one); NaN when either has no tokens per second.
     */
    public double[] tokensPerSecOver(Decoding base) {
        double ratio = tokensPerSec() / base.tokensPerSec();
        Interval ci = Double.isFinite(ratio) ? Bootstraps.once(new Bootstraps.RateOver(this, base),
                () -> SampleStats.meanRatioCi(itlMs, base.itlMs)) : null;
        return new double[] {ratio, ci == null ? Double.NaN : ci.lo(), ci == null ? Double.NaN : ci.hi()};
    }

    /** True when every generation was checked against the native CPU reference and gave its tokens. */
    public boolean tokensVerified() {
        return check == TokenCheck.REFERENCE && generations > 0 && verified == generations;
    }

    /** True when a check was made and some generation did not give the tokens checked against. */
    public boolean tokensDiffered() {
        return check != TokenCheck.NONE && verified < generations;
    }

    /** "verified 14/14", "repeated 5/5", "not verified 13/14", "not checked": what the tokens' check found. */
    public String tokensWord() {
        return check.word(verified, generations) + (check == TokenCheck.NONE || generations == 0 ? "" : " " + verified + "/" + generations);
    }

    /**
     * One line for a table or a note: {@code TTFT 0.82 ms [0.80, 0.85] · 868.3 tokens/s [850.1, 880.4] · tokens verified 14/14}
     * (an interval where the samples support one; "tokens not verified 13/14" when a generation differed).
     */
    public String summary() {
        Interval t = ttftCi();
        Interval r = tokensPerSecCi();
        String tps = Double.isFinite(tokensPerSec()) ? String.format(java.util.Locale.ROOT, " · %.1f tokens/s%s", tokensPerSec(),
                r == null ? "" : String.format(java.util.Locale.ROOT, " [%.1f, %.1f]", r.lo(), r.hi())) : "";
        String verdict = check == TokenCheck.NONE || generations == 0 ? "" : " · tokens " + tokensWord();
        return String.format(java.util.Locale.ROOT, "TTFT %s ms%s", Timings.formatMs(ttftP50Ms()), t == null ? ""
                : " [" + Timings.formatMs(t.lo()) + ", " + Timings.formatMs(t.hi()) + "]") + tps + verdict;
    }

    private static double[] sorted(double[] v) {
        double[] s = v.clone();
        Arrays.sort(s);
        return s;
    }

    private static double percentile(double[] v, double p) {
        return Timings.percentile(sorted(v), p);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Decoding d && promptTokens == d.promptTokens && newTokens == d.newTokens && Arrays.equals(ttftMs, d.ttftMs)
                && Arrays.equals(itlMs, d.itlMs) && Arrays.equals(encoderMs, d.encoderMs) && Double.compare(coldTtftMs, d.coldTtftMs) == 0
                && Double.compare(coldTotalMs, d.coldTotalMs) == 0 && kvCacheBytes.equals(d.kvCacheBytes)
                && generations == d.generations && verified == d.verified && check == d.check;
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(ttftMs) * 31 + Arrays.hashCode(itlMs);
    }

    @Override
    public String toString() {
        return String.format(java.util.Locale.ROOT, "Decoding[p%d n%d, ttft p50 %.3f ms, %.1f tokens/s, tokens %s]", promptTokens,
                newTokens, ttftP50Ms(), tokensPerSec(), tokensWord());
    }
}
