package dev.accelbridge.tools.cli;

import dev.accelbridge.run.DrillDown;
import picocli.CommandLine.Option;

/** What a run finds out beyond the matrix ({@link DrillDown}), as options {@code run} and {@code serve} share. */
@OptionSection("Drill-down: profiles, re-creation, bisection")
final class DrillDownOptions {
    @Option(names = "--no-bisect", description = "Do not bisect WRONG_OUTPUT cases to their first diverging node (on by default).")
    boolean noBisect;

    @Option(names = "--bisect-budget", paramLabel = "SECONDS", converter = Converters.FractionalSeconds.class,
            description = "The time the run's bisections take together (default 30); a wrong case past it gives the command that "
                    + "bisects it, and one bisected before on this host for the same case and adapter is reused.")
    java.time.Duration bisectBudget;

    @Option(names = "--profile", description = "Profile every case per op (on as many extra iterations as are timed, after the timed ones).")
    boolean profile;

    @Option(names = "--recreate", paramLabel = "N", converter = Converters.Positive.class,
            description = "Create, run and release each case's session N more times and record memory after each (a leak check).")
    Integer recreate;

    /** Puts the options on the group's builder. */
    DrillDown.Builder apply(DrillDown.Builder d) {
        return d.optBisect(!noBisect).optProfileIterations(profile ? DrillDown.AS_TIMED : 0).optRecreate(recreate == null ? 0 : recreate)
                .optBisectBudget(bisectBudget);
    }
}
