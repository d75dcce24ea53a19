package dev.accelbridge.run;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.Limits;
import dev.accelbridge.core.MinDurations;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.SamplingDepth;

import java.time.Duration;

/**
 * How many runs a case takes: warm-ups and timed iterations, each with the least time they take together. One group of a
 * {@link RunPlan}. A field left null takes its default where the plan is built ({@link #resolve}): a plan's own
 * sampling has every field set.
 *
 * @param warmups        warm-up iterations per case
 * @param iterations     timed iterations per case (at least)
 * @param warmupDuration the least time a case's warm-ups take together ({@code --warmup-duration})
 * @param minDuration    the least time a case's timed iterations take together ({@code --min-duration})
 * @param depth          how far sampling goes ({@code --sampling}): {@code auto} settles figures and runs a software
 *                       adapter's cases for their verdict ({@link SamplingDepth})
 */
@PublicApi
@JsonDeserialize(builder = Sampling.Builder.class)
public record Sampling(Integer warmups, Integer iterations, Duration warmupDuration, Duration minDuration, SamplingDepth depth) {
    /** The longest {@code --min-duration}: a case's timed iterations beyond it say nothing a longer run would not. */
    static final Duration MAX_MIN_DURATION = Duration.ofMinutes(10);

    /** Nothing given: every default applies. */
    public static final Sampling DEFAULT = new Sampling(null, null, null, null, null);

    /** @throws AccelbridgeException naming the option out of range and a value that works */
    public Sampling {
        if (iterations != null && (iterations < 1 || iterations > Limits.MAX_ITERATIONS)) {
            throw new AccelbridgeException("--iterations must be 1.." + Limits.MAX_ITERATIONS + ", got " + iterations, "e.g. --iterations 10");
        }
        if (warmups != null && (warmups < 0 || warmups > Limits.MAX_ITERATIONS)) {
            throw new AccelbridgeException("--warmups must be 0.." + Limits.MAX_ITERATIONS + ", got " + warmups, "e.g. --warmups 3");
        }
        if (minDuration != null && (minDuration.isNegative() || minDuration.compareTo(MAX_MIN_DURATION) > 0)) {
            throw new AccelbridgeException("--min-duration must be 0.." + MAX_MIN_DURATION.toSeconds() + " seconds, got " + minDuration,
                    "e.g. --min-duration 0.5 (seconds; 0 runs exactly --iterations)");
        }
        if (warmupDuration != null && (warmupDuration.isNegative() || warmupDuration.compareTo(MAX_MIN_DURATION) > 0)) {
            throw new AccelbridgeException("--warmup-duration must be 0.." + MAX_MIN_DURATION.toSeconds() + " seconds, got "
                    + warmupDuration, "e.g. --warmup-duration 0.5 (seconds; 0 runs exactly --warmups)");
        }
    }

    /** Counts and durations; the depth left to its default. */
    public Sampling(Integer warmups, Integer iterations, Duration warmupDuration, Duration minDuration) {
        this(warmups, iterations, warmupDuration, minDuration, null);
    }

    /** A builder: nothing given. */
    public static Builder builder() {
        return new Builder();
    }

    /** This sampling with its silences filled ({@link PlanDefaults#sampling}); a conformance run has its own defaults. */
    public Sampling resolve(boolean conformance) {
        return PlanDefaults.sampling(conformance, this);
    }

    /** Whether a resolved sampling warms a case up before timing it (so it measures a steady state): a warm-up run or a duration. */
    public boolean warmsUp() {
        return (warmups != null && warmups > 0) || (warmupDuration != null && !warmupDuration.isZero());
    }

    /**
     * The rule each case of a resolved sampling runs by, in one line for {@code run} to say: the durations' rule
     * ({@link MinDurations#describe}) and what a software adapter's cases run instead.
     */
    public String describe() {
        if (depth == SamplingDepth.VERDICT) {
            return "the verdict's runs only: no warm-up, at most " + SamplingDepth.WINDOW_RUNS + " timed runs (--sampling verdict)";
        }
        return durations().describe(warmups, iterations) + (depth == SamplingDepth.FULL ? ""
                : "; on a software adapter, the verdict's runs only (no warm-up, at most " + SamplingDepth.WINDOW_RUNS
                + " timed; --sampling full settles them)");
    }

    /** The least durations of a resolved sampling. */
    public MinDurations durations() {
        return new MinDurations(warmupDuration, minDuration);
    }

    /** Builds a {@link Sampling}; what a stored plan's {@code sampling} is read through. */
    @JsonPOJOBuilder(withPrefix = "opt")
    public static final class Builder {
        private Integer warmups;
        private Integer iterations;
        private Duration warmupDuration;
        private Duration minDuration;
        private SamplingDepth depth;

        private Builder() {
        }

        /** How far sampling goes (default {@link SamplingDepth#AUTO}: a software adapter's cases run for their verdict). */
        public Builder optDepth(SamplingDepth d) {
            this.depth = d;
            return this;
        }

        /** Warm-up iterations per case (default 3; 0 for a conformance run; at least 0). */
        public Builder optWarmups(Integer n) {
            this.warmups = n;
            return this;
        }

        /** Timed iterations per case (default 10; 1 for a conformance run; at least 1). */
        public Builder optIterations(Integer n) {
            this.iterations = n;
            return this;
        }

        /** The least time a case's warm-ups take together (default {@link PlanDefaults#WARMUP_DURATION}; zero: none). */
        public Builder optWarmupDuration(Duration d) {
            this.warmupDuration = d;
            return this;
        }

        /** The least time a case's timed iterations take together (default {@link PlanDefaults#MIN_DURATION}; zero: none). */
        public Builder optMinDuration(Duration d) {
            this.minDuration = d;
            return this;
        }

        /** The sampling as given (its silences are filled where the plan is built). */
        public Sampling build() {
            return new Sampling(warmups, iterations, warmupDuration, minDuration, depth);
        }
    }
}
