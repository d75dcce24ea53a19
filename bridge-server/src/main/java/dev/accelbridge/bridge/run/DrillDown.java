package dev.accelbridge.bridge.run;

/**
 * What a run finds out beyond the matrix.
 *
 * @param bisect            bisect every WRONG_OUTPUT case to its first diverging node and write its repro
 * @param bisectAlways      bisect every case whatever its status ({@code accelbridge bisect})
 * @param profileIterations iterations profiled per op per case (0: none)
 * @param recreate          create/run/release cycles per case for the leak check (0: none)
 */
public record DrillDown(boolean bisect, boolean bisectAlways, int profileIterations, int recreate) {
    /** Bisection on, no profile, no leak check: a run's default. */
    public static final DrillDown DEFAULT = new DrillDown(true, false, 0, 0);
}
