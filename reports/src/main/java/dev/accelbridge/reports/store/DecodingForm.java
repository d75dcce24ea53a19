package dev.accelbridge.reports.store;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.accelbridge.core.Decoding;
import dev.accelbridge.core.Interval;
import dev.accelbridge.core.Limits;
import dev.accelbridge.core.ScenarioId;
import dev.accelbridge.core.TokenCheck;

import java.util.Set;

import static dev.accelbridge.reports.store.ExportRules.array;
import static dev.accelbridge.reports.store.ExportRules.bool;
import static dev.accelbridge.reports.store.ExportRules.nonNegative;
import static dev.accelbridge.reports.store.ExportRules.whole;

import static dev.accelbridge.reports.store.ResultJson.finite;

/**
 * A generation case's figures ({@link Decoding}) as JSON: the store's {@code decoding} column (with every step's time) and
 * the {@code decoding} field of {@link ResultForm} (the steps only where the samples go too). The derived figures are
 * written beside the raw ones so a script reads TTFT and tokens/s without recomputing them; reading takes the raw ones.
 *
 * @param promptTokens   the prompt's length
 * @param newTokens      the tokens each generation made
 * @param ttftP50Ms      the median time to first token
 * @param ttftCiMs       its 95 % interval, null below 6 generations
 * @param itlP50Ms       the median inter-token latency
 * @param itlP90Ms       its 90th percentile, null below the samples it needs
 * @param tokensPerSec   1000 / mean inter-token latency (MLPerf Client), null below two tokens
 * @param tokensPerSecCi its 95 % interval, or null
 * @param coldTtftMs     the cold generation's TTFT
 * @param coldTotalMs    the cold generation's whole time
 * @param kvCacheBytes   the KV cache after the last token; null when the runtime did not say
 * @param generations    the generations whose tokens were checked
 * @param verified       those that gave the tokens they were checked against
 * @param tokensChecked  what they were checked against: {@code reference} (the native CPU reference), {@code own-first}
 *                       (the reference itself, against its first generation), or {@code none}
 * @param tokensVerified every generation checked against the native CPU reference gave its tokens (false for the
 *                       reference's own check, which verifies nothing)
 * @param ttftMs         each timed generation's TTFT (left out with the samples)
 * @param itlMs          every inter-token latency (left out with the samples)
 * @param encoderP50Ms   an encoder-decoder's median encoder time (its TTFT includes it); null for a decoder alone
 * @param encoderMs      each timed generation's encoder time (left out with the samples)
 * @param teacherMs      the teacher-forced pass's time (inference the verdict asks for), null when not measured
 */
record DecodingForm(int promptTokens, int newTokens, Double ttftP50Ms, double[] ttftCiMs, Double itlP50Ms, Double itlP90Ms,
                    Double tokensPerSec, double[] tokensPerSecCi, Double coldTtftMs, Double coldTotalMs, Long kvCacheBytes,
                    int generations, int verified, String tokensChecked, boolean tokensVerified,
                    @JsonInclude(JsonInclude.Include.NON_NULL) double[] ttftMs,
                    @JsonInclude(JsonInclude.Include.NON_NULL) double[] itlMs,
                    @JsonInclude(JsonInclude.Include.NON_NULL) Double encoderP50Ms,
                    @JsonInclude(JsonInclude.Include.NON_NULL) double[] encoderMs,
                    @JsonInclude(JsonInclude.Include.NON_NULL) Double teacherMs) {

    /** Each {@link TokenCheck} by its JSON name. */
    private static final java.util.Map<String, TokenCheck> CHECKS = java.util.Map.of("none", TokenCheck.NONE, "reference",
            TokenCheck.REFERENCE, "own-first", TokenCheck.OWN_FIRST);

    /** The export's rules for this form's fields ({@link ExportRules}). */
    static final ExportRules.Kind SCHEMA = ExportRules.kind(Set.of("promptTokens", "newTokens"),
            "promptTokens", whole(0, ScenarioId.MAX_TOKENS), "newTokens", whole(0, ScenarioId.MAX_TOKENS), "ttftP50Ms", nonNegative(),
            "ttftCiMs", array(nonNegative(), 2), "itlP50Ms", nonNegative(), "itlP90Ms", nonNegative(), "tokensPerSec", nonNegative(),
            "tokensPerSecCi", array(nonNegative(), 2), "coldTtftMs", nonNegative(), "coldTotalMs", nonNegative(),
            "kvCacheBytes", whole(0, Long.MAX_VALUE), "generations", whole(0, Limits.MAX_ITERATIONS),
            "verified", whole(0, Limits.MAX_ITERATIONS), "tokensChecked", ExportRules.one(CHECKS.keySet()), "tokensVerified", bool(), "ttftMs", array(nonNegative(), Limits.MAX_ITERATIONS),
            "itlMs", array(nonNegative(), Limits.MAX_ITERATIONS), "encoderP50Ms", nonNegative(),
            "encoderMs", array(nonNegative(), Limits.MAX_ITERATIONS), "teacherMs", nonNegative());

    static DecodingForm of(Decoding d, boolean withSteps) {
        return d == null ? null : new DecodingForm(d.promptTokens(), d.newTokens(), finite(d.ttftP50Ms()), arr(d.ttftCi()), finite(d.itlP50Ms()),
                finite(d.itlP90Ms()), finite(d.tokensPerSec()), arr(d.tokensPerSecCi()), finite(d.coldTtftMs()), finite(d.coldTotalMs()),
                d.kvCacheBytes().isPresent() ? d.kvCacheBytes().getAsLong() : null, d.generations(), d.verified(),
                CHECKS.entrySet().stream().filter(e -> e.getValue() == d.check()).findFirst().orElseThrow().getKey(), d.tokensVerified(), withSteps ? d.ttftMs() : null,
                withSteps ? d.itlMs() : null, finite(d.encoderP50Ms()), withSteps && d.encoderMs().length > 0 ? d.encoderMs() : null,
                finite(d.teacherMs()));
    }

    Decoding toDecoding() {
        return new Decoding(promptTokens, newTokens, ttftMs == null ? new double[0] : ttftMs, itlMs == null ? new double[0] : itlMs,
                d(coldTtftMs), d(coldTotalMs), kvCacheBytes == null ? java.util.OptionalLong.empty() : java.util.OptionalLong.of(kvCacheBytes),
                generations, verified, checked(), encoderMs == null ? new double[0] : encoderMs, d(teacherMs));
    }

    /**
     * What the tokens were checked against; a record written before this was said claims nothing, since it may hold the
     * reference's own check or a check made with no reference at all.
     */
    private TokenCheck checked() {
        return tokensChecked == null ? TokenCheck.NONE : CHECKS.getOrDefault(tokensChecked, TokenCheck.NONE);
    }

    /** The decoding column's text: every step kept; null for a single pass. */
    static String column(Decoding d) {
        if (d == null) {
            return null;
        }
        try {
            return ResultJson.MAPPER.writeValueAsString(of(d, true));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The figures the column holds; null for a single pass. */
    static Decoding read(String column) {
        if (column == null) {
            return null;
        }
        try {
            return ResultJson.MAPPER.readValue(column, DecodingForm.class).toDecoding();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("the decoding column is not valid: " + e.getOriginalMessage());
        }
    }


    private static double[] arr(Interval i) {
        return i == null ? null : i.toArray();
    }

    private static double d(Double v) {
        return v == null ? Double.NaN : v;
    }
}
