package dev.accelbridge.reports.store;

import com.fasterxml.jackson.annotation.JsonInclude;
import dev.accelbridge.core.Decoding;
import dev.accelbridge.core.Interval;
import dev.accelbridge.core.Limits;
import dev.accelbridge.core.Scenario;

import java.util.Set;

import static dev.accelbridge.reports.store.ExportSchema.array;
import static dev.accelbridge.reports.store.ExportSchema.bool;
import static dev.accelbridge.reports.store.ExportSchema.nonNegative;
import static dev.accelbridge.reports.store.ExportSchema.whole;

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
 * @param kvCacheBytes   the KV cache after the last token
 * @param generations    the generations checked against the reference
 * @param verified       those that gave the reference's tokens
 * @param tokensVerified every checked generation gave the reference's tokens
 * @param ttftMs         each timed generation's TTFT (left out with the samples)
 * @param itlMs          every inter-token latency (left out with the samples)
 * @param encoderP50Ms   an encoder-decoder's median encoder time (its TTFT includes it); null for a decoder alone
 * @param encoderMs      each timed generation's encoder time (left out with the samples)
 */
record DecodingForm(int promptTokens, int newTokens, Double ttftP50Ms, double[] ttftCiMs, Double itlP50Ms, Double itlP90Ms,
                    Double tokensPerSec, double[] tokensPerSecCi, Double coldTtftMs, Double coldTotalMs, long kvCacheBytes,
                    int generations, int verified, boolean tokensVerified,
                    @JsonInclude(JsonInclude.Include.NON_NULL) double[] ttftMs,
                    @JsonInclude(JsonInclude.Include.NON_NULL) double[] itlMs,
                    @JsonInclude(JsonInclude.Include.NON_NULL) Double encoderP50Ms,
                    @JsonInclude(JsonInclude.Include.NON_NULL) double[] encoderMs) {

    /** The export's rules for this form's fields ({@link ExportSchema}). */
    static final ExportSchema.Kind SCHEMA = ExportSchema.kind(Set.of("promptTokens", "newTokens"),
            "promptTokens", whole(0, Scenario.MAX_TOKENS), "newTokens", whole(0, Scenario.MAX_TOKENS), "ttftP50Ms", nonNegative(),
            "ttftCiMs", array(nonNegative(), 2), "itlP50Ms", nonNegative(), "itlP90Ms", nonNegative(), "tokensPerSec", nonNegative(),
            "tokensPerSecCi", array(nonNegative(), 2), "coldTtftMs", nonNegative(), "coldTotalMs", nonNegative(),
            "kvCacheBytes", whole(0, Long.MAX_VALUE), "generations", whole(0, Limits.MAX_ITERATIONS),
            "verified", whole(0, Limits.MAX_ITERATIONS), "tokensVerified", bool(), "ttftMs", array(nonNegative(), Limits.MAX_ITERATIONS),
            "itlMs", array(nonNegative(), Limits.MAX_ITERATIONS), "encoderP50Ms", nonNegative(),
            "encoderMs", array(nonNegative(), Limits.MAX_ITERATIONS));

    static DecodingForm of(Decoding d, boolean withSteps) {
        return d == null ? null : new DecodingForm(d.promptTokens(), d.newTokens(), fig(d.ttftP50Ms()), arr(d.ttftCi()), fig(d.itlP50Ms()),
                fig(d.itlP90Ms()), fig(d.tokensPerSec()), arr(d.tokensPerSecCi()), fig(d.coldTtftMs()), fig(d.coldTotalMs()),
                d.kvCacheBytes(), d.generations(), d.verified(), d.tokensVerified(), withSteps ? d.ttftMs() : null,
                withSteps ? d.itlMs() : null, fig(d.encoderP50Ms()), withSteps && d.encoderMs().length > 0 ? d.encoderMs() : null);
    }

    Decoding toDecoding() {
        return new Decoding(promptTokens, newTokens, ttftMs == null ? new double[0] : ttftMs, itlMs == null ? new double[0] : itlMs,
                d(coldTtftMs), d(coldTotalMs), kvCacheBytes, generations, verified, encoderMs == null ? new double[0] : encoderMs);
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

    private static Double fig(double v) {
        return Double.isFinite(v) ? v : null;
    }

    private static double[] arr(Interval i) {
        return i == null ? null : i.toArray();
    }

    private static double d(Double v) {
        return v == null ? Double.NaN : v;
    }
}
