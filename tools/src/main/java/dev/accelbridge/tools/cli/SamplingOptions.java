package dev.accelbridge.tools.cli;

import dev.accelbridge.core.SamplingDepth;
import dev.accelbridge.run.PlanDefaults;
import dev.accelbridge.run.Sampling;
import picocli.CommandLine.Option;

import java.time.Duration;

/** How many runs a case takes, the options {@code run} and {@code serve} share: counts and minimum durations. */
@OptionSection("Sampling: warm-ups, timed runs, durations")
final class SamplingOptions {
    @Option(names = "--warmups", converter = Converters.NonNegative.class, description = "Warm-up iterations per case (default 3; 0 for a conformance run: --suites ops alone, or models that ship test data). Given alone, exactly this many.")
    Integer warmups;

    @Option(names = {"-n", "--iterations"}, converter = Converters.Positive.class, description = "Timed iterations per case (default 10; 1 for a conformance run). Given alone, exactly this many: -n 1 is one run.")
    Integer iterations;

    @Option(names = "--min-duration", paramLabel = "SECONDS", converter = Converters.FractionalSeconds.class,
            description = "Timed iterations go on past --iterations until this many seconds of them have passed, up to 1000 "
                    + "(default 0.5; 0 when -n is given or for a conformance run; 0: exactly --iterations). More samples give p90/p99 and narrower intervals.")
    Duration minDuration;

    @Option(names = "--warmup-duration", paramLabel = "SECONDS", converter = Converters.FractionalSeconds.class,
            description = "Warm-ups go on past --warmups until this many seconds of them have passed, then until the runs stop getting faster "
                    + "(default 0.5; 0 when --warmups is given or for a conformance run; 0: exactly --warmups), so a browser's engine has tiered its code up before the runs are timed.")
    Duration warmupDuration;

    @Option(names = "--sampling", paramLabel = "auto|full|verdict", converter = Converters.Depth.class,
            description = "How far sampling goes (default auto): auto settles every figure, except on a software adapter (WebGPU on "
                    + "SwiftShader or lavapipe), whose cases run for their verdict with " + SamplingDepth.WINDOW_RUNS
                    + " timed runs and no warm-up (indicative figures, never ranked); full settles those too; verdict runs every case that way.")
    SamplingDepth depth;

    /** Puts the options on the group's builder. */
    Sampling.Builder apply(Sampling.Builder b) {
        // only what was given: where the user is silent the plan's defaults decide (they differ for the op suite)
        if (warmups != null) {
            b.optWarmups(warmups);
        }
        if (iterations != null) {
            b.optIterations(iterations);
        }
        if (minDuration != null) {
            b.optMinDuration(minDuration);
        }
        if (warmupDuration != null) {
            b.optWarmupDuration(warmupDuration);
        }
        if (depth != null) {
            b.optDepth(depth);
        }
        return b;
    }
}
