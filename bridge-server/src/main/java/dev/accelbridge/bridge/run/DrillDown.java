package dev.accelbridge.bridge.run;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.Limits;

/**
 * What a run finds out beyond the matrix.
 *
 * @param bisect            bisect every WRONG_OUTPUT case to its first diverging node and write its repro
 * @param bisectAlways      bisect every case whatever its status ({@code accelbridge bisect})
 * @param profileIterations iterations profiled per op per case (0: none)
 * @param recreate          create/run/release cycles per case for the leak check (0: none)
 */
@PublicApi
public record DrillDown(boolean bisect, boolean bisectAlways, int profileIterations, int recreate) {
    /** @throws AccelbridgeException when the profiled iterations or the leak check's cycles are out of range */
    public DrillDown {
        int max = Limits.MAX_REPEATS;
        if (profileIterations < 0 || profileIterations > max) {
            throw new AccelbridgeException("profiled iterations must be 1.." + max + ", got " + profileIterations, "e.g. --profile");
        }
        if (recreate < 0 || recreate > max) {
            throw new AccelbridgeException("--recreate must be 1.." + max + ", got " + recreate, "e.g. --recreate 10");
        }
    }

    /** Bisection on, no profile, no leak check: a run's default. */
    public static final DrillDown DEFAULT = new DrillDown(true, false, 0, 0);
}
