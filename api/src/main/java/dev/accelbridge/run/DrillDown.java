package dev.accelbridge.run;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.Limits;
import dev.accelbridge.core.PublicApi;

/**
 * What a run finds out beyond the matrix. One group of a {@link RunPlan}; its JSON form is the record's own, read back
 * through its builder.
 *
 * @param bisect            bisect every WRONG_OUTPUT case to its first diverging node and write its repro
 * @param bisectAlways      bisect every case whatever its status ({@code accelbridge bisect})
 * @param profileIterations iterations profiled per op per case (0: none; {@link #AS_TIMED}: as many as the timed
 *                          iterations, which the plan fills in where it is built)
 * @param recreate          create/run/release cycles per case for the leak check (0: none)
 * @param bisectBudget      the time a run's bisections take together ({@code --bisect-budget}, default {@link #BISECT_BUDGET});
 *                          a wrong case past it is not bisected and its row gives the command that bisects it. Not applied
 *                          where every case is bisected ({@code accelbridge bisect})
 */
@PublicApi
@JsonDeserialize(builder = DrillDown.Builder.class)
public record DrillDown(boolean bisect, boolean bisectAlways, int profileIterations, int recreate, java.time.Duration bisectBudget) {
    /**
     * The bisections of one run together: 30 s, what a default run's few wrong cases take here (a bisection of a small
     * model runs in seconds); the rest are said with their command, and one made before for the same cell is reused.
     */
    public static final java.time.Duration BISECT_BUDGET = java.time.Duration.ofSeconds(30);

    /** Profile as many iterations as are timed ({@code --profile}). */
    public static final int AS_TIMED = -1;

    /** @throws AccelbridgeException when the profiled iterations or the leak check's cycles are out of range */
    public DrillDown {
        int max = Limits.MAX_REPEATS;
        if (profileIterations < AS_TIMED || profileIterations > max) {
            throw new AccelbridgeException("profiled iterations must be 1.." + max + ", got " + profileIterations, "e.g. --profile");
        }
        if (recreate < 0 || recreate > max) {
            throw new AccelbridgeException("--recreate must be 1.." + max + ", got " + recreate, "e.g. --recreate 10");
        }
        bisectBudget = bisectBudget == null ? BISECT_BUDGET : bisectBudget;
        if (bisectBudget.isNegative()) {
            throw new AccelbridgeException("--bisect-budget must not be negative, got " + bisectBudget.toMillis() / 1000.0 + " s",
                    "e.g. --bisect-budget 30");
        }
    }

    /** A drill-down with the default bisection budget. */
    public DrillDown(boolean bisect, boolean bisectAlways, int profileIterations, int recreate) {
        this(bisect, bisectAlways, profileIterations, recreate, BISECT_BUDGET);
    }

    /** Bisection on, no profile, no leak check: a run's default. */
    public static final DrillDown DEFAULT = new DrillDown(true, false, 0, 0);

    /** A builder: bisection on, nothing else. */
    public static Builder builder() {
        return new Builder();
    }

    /** This drill-down with {@link #AS_TIMED} made the count of timed iterations. */
    DrillDown resolve(int timedIterations) {
        return profileIterations == AS_TIMED ? new DrillDown(bisect, bisectAlways, timedIterations, recreate, bisectBudget) : this;
    }

    /** Builds a {@link DrillDown}; what a stored plan's {@code drillDown} is read through. */
    @JsonPOJOBuilder(withPrefix = "opt")
    public static final class Builder {
        private boolean bisect = true;
        private boolean bisectAlways;
        private int profileIterations;
        private int recreate;
        private java.time.Duration bisectBudget = BISECT_BUDGET;

        private Builder() {
        }

        /** Bisect WRONG_OUTPUT cases (default on; {@code --no-bisect}). */
        public Builder optBisect(boolean b) {
            this.bisect = b;
            return this;
        }

        /** Bisect every case, whatever its status (what {@code accelbridge bisect} asks for). */
        public Builder optBisectAlways(boolean b) {
            this.bisectAlways = b;
            this.bisect |= b;
            return this;
        }

        /** Iterations profiled per op per case (default 0: none; {@link #AS_TIMED}: as many as are timed). */
        public Builder optProfileIterations(int n) {
            this.profileIterations = n;
            return this;
        }

        /** Create/run/release cycles per case for the leak check (default 0: none). */
        public Builder optRecreate(int n) {
            this.recreate = n;
            return this;
        }

        /** The time a run's bisections take together (default {@link #BISECT_BUDGET}). */
        public Builder optBisectBudget(java.time.Duration d) {
            this.bisectBudget = d == null ? BISECT_BUDGET : d;
            return this;
        }

        /** The drill-down. */
        public DrillDown build() {
            return new DrillDown(bisect, bisectAlways, profileIterations, recreate, bisectBudget);
        }
    }
}
