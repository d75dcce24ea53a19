package dev.accelbridge.run;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.Limits;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.TimeBudget;

import java.time.Duration;
import java.util.Optional;

/**
 * What one case may take: its time, its session creation's time, its threads, its re-runs and its outputs' bytes. One
 * group of a {@link RunPlan}; its JSON form is the record's own, read back through its builder.
 *
 * @param caseTimeout    the cap on one case ({@code --timeout}); within it session creation, the first inference and the
 *                       timed runs have their own limits ({@link TimeBudget})
 * @param loadTimeout    the limit for session creation alone ({@code --load-timeout}); empty: 30 s + 1 s per 10 MB of model
 * @param threads        intra-op threads for both sides (ORT natively, {@code env.wasm.numThreads} in the page), so a
 *                       browser-vs-native ratio compares like with like; empty: the cores a browser may use
 * @param retries        re-runs of a FAILED case on a fresh page (a fresh browser when it crashed); one that passes on a
 *                       re-run is flaky, never silently PASSED
 * @param maxResultBytes the most bytes a browser case's outputs may total when the model does not declare their sizes
 *                       ({@code --max-result-mb}); a model that declares them gets exactly that budget
 */
@PublicApi
@JsonDeserialize(builder = RunLimits.Builder.class)
public record RunLimits(Duration caseTimeout, Optional<Duration> loadTimeout, Optional<Integer> threads, int retries,
                       long maxResultBytes) {
    /** Every default. */
    public static final RunLimits DEFAULT = builder().build();

    /** @throws AccelbridgeException naming the option out of its range */
    public RunLimits {
        if (caseTimeout == null || caseTimeout.isZero() || caseTimeout.isNegative()) {
            throw new AccelbridgeException("--timeout must be positive, got " + (caseTimeout == null ? "none" : caseTimeout.toSeconds() + " s"),
                    "give the seconds one case may take, e.g. --timeout 180");
        }
        if (threads.isPresent() && threads.get() < 1) {
            throw new AccelbridgeException("--threads must be at least 1, got " + threads.get(), "e.g. --threads 2");
        }
        if (maxResultBytes < 1 << 20) {
            throw new AccelbridgeException("--max-result-mb must be at least 1, got " + (maxResultBytes >> 20), "e.g. --max-result-mb 4096");
        }
        if (retries < 0 || retries > Limits.MAX_RETRIES) {
            throw new AccelbridgeException("--retries must be 0.." + Limits.MAX_RETRIES + ", got " + retries, "e.g. --retries 1");
        }
    }

    /** A builder: every field has its default. */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds {@link RunLimits}; what a stored plan's {@code limits} is read through. */
    @JsonPOJOBuilder(withPrefix = "opt")
    public static final class Builder {
        private Duration caseTimeout = TimeBudget.CASE_CAP;
        private Duration loadTimeout;
        private Integer threads;
        private int retries;
        private long maxResultBytes = Limits.DEFAULT_RESULT_BYTES;

        private Builder() {
        }

        /** Limit for one case on one hop (default {@link TimeBudget#CASE_CAP}, positive). */
        public Builder optCaseTimeout(Duration d) {
            this.caseTimeout = d;
            return this;
        }

        /** Limit for session creation alone (default: 30 s + 1 s per 10 MB of model, at most the case timeout). */
        public Builder optLoadTimeout(Duration d) {
            this.loadTimeout = d;
            return this;
        }

        /** Intra-op threads for both sides (default: the cores a browser may use). */
        public Builder optThreads(Integer n) {
            this.threads = n;
            return this;
        }

        /** Re-runs of a FAILED case (default 0). */
        public Builder optRetries(int n) {
            this.retries = n;
            return this;
        }

        /** The most bytes a browser case's undeclared outputs may total ({@code --max-result-mb}; default 2 GiB). */
        public Builder optMaxResultBytes(long n) {
            this.maxResultBytes = n;
            return this;
        }

        /**
         * The limits.
         *
         * @throws AccelbridgeException naming the option out of its range
         */
        public RunLimits build() {
            return new RunLimits(caseTimeout, Optional.ofNullable(loadTimeout), Optional.ofNullable(threads), retries, maxResultBytes);
        }
    }
}
