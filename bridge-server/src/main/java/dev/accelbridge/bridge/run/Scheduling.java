package dev.accelbridge.bridge.run;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.Limits;

/**
 * How the browser cases are scheduled.
 *
 * @param parallel browser lanes at once, each with its own browser and page
 * @param retries  re-runs of a FAILED case on a fresh page (a fresh browser when it crashed); one that passes on a
 *                 re-run is flaky, never silently PASSED
 * @param maxResultBytes the most bytes a browser case's outputs may total when the model does not declare their sizes
 *                 ({@code --max-result-mb}); a model that declares them gets exactly that budget
 */
@PublicApi
public record Scheduling(int parallel, int retries, long maxResultBytes) {
    /**
     * @throws AccelbridgeException naming the option ({@code --parallel}, {@code --retries}, {@code --max-result-mb}) out of
     *                              its range
     */
    public Scheduling {
        if (parallel < 1 || parallel > 64) {
            throw new AccelbridgeException("--parallel must be 1..64, got " + parallel, "e.g. --parallel 2");
        }
        if (maxResultBytes < 1 << 20) {
            throw new AccelbridgeException("--max-result-mb must be at least 1, got " + (maxResultBytes >> 20), "e.g. --max-result-mb 4096");
        }
        if (retries < 0 || retries > Limits.MAX_RETRIES) {
            throw new AccelbridgeException("--retries must be 0.." + Limits.MAX_RETRIES + ", got " + retries, "e.g. --retries 1");
        }
    }

    /** One lane, no retry, the default result cap. */
    public static final Scheduling SERIAL = new Scheduling(1, 0);

    /** Lanes and retries with the default result cap (2 GiB). */
    public Scheduling(int parallel, int retries) {
        this(parallel, retries, dev.accelbridge.browser.bridge.OutputBudget.DEFAULT_CAP);
    }
}
