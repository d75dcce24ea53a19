package dev.accelbridge.tools.cli;

import dev.accelbridge.run.RunLimits;
import dev.accelbridge.core.Limits;
import dev.accelbridge.core.TimeBudget;
import picocli.CommandLine.Option;

import java.time.Duration;

/** What one case may take ({@link RunLimits}), as options {@code run}, {@code serve} and the bisections share. */
@OptionSection("Limits: time, memory, retries")
final class LimitOptions {
    @Option(names = "--timeout", paramLabel = "SECONDS", converter = Converters.Seconds.class,
            description = "Cap for one case, in seconds (default 3600). Within it session creation has --load-timeout, the first "
                    + "inference 300 s, and the warm-ups and timed runs a deadline derived from the first inference.")
    Duration timeout = TimeBudget.CASE_CAP;

    @Option(names = "--load-timeout", paramLabel = "SECONDS", converter = Converters.Seconds.class,
            description = "Limit for creating a session alone (default: 30 s + 1 s per 10 MB of model), so a load that never returns costs that, not --timeout.")
    Duration loadTimeout;

    @Option(names = "--threads", paramLabel = "N", converter = Converters.Positive.class,
            description = "Intra-op threads on both sides, native ONNX Runtime and onnxruntime-web's wasm (default: the cores a browser may use here).")
    Integer threads;

    @Option(names = "--retries", paramLabel = "N", converter = Converters.NonNegative.class,
            description = "Re-run a FAILED case up to N times on a fresh page (a fresh browser after a crash); one that then "
                    + "passes is reported flaky. A lane whose page did not join is started again as often (default 0).")
    int retries;

    @Option(names = "--max-result-mb", paramLabel = "MB", converter = Converters.Positive.class,
            description = "The most a browser case's outputs may total when the model does not declare their sizes "
                    + "(default 2048); outputs cross from the page in chunks, so no frame limit applies.")
    Integer maxResultMb;

    /** Puts the options on the group's builder. */
    RunLimits.Builder apply(RunLimits.Builder l) {
        return l.optCaseTimeout(timeout).optLoadTimeout(loadTimeout).optThreads(threads).optRetries(retries)
                .optMaxResultBytes(maxResultMb == null ? Limits.DEFAULT_RESULT_BYTES : (long) maxResultMb << 20);
    }
}
