package dev.accelbridge.reports.recommend;

import dev.accelbridge.core.Interval;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.PublicApi;

/**
 * The answer to "which backend should this family (or model) use on this kind of machine, deployed here", from the
 * store: one answer per deployment target (native, and each browser), as a team shipping a web app asks it per browser.
 *
 * @param family    the model family
 * @param model     the model, or null for the whole family
 * @param host      the host name
 * @param hostFingerprint the host
 * @param precision the precision
 * @param target    where it would be deployed: {@code native}, or a browser ({@code chromium}, {@code firefox}, ...);
 *                  candidates are the backends measured there
 * @param best      the fastest backend that passed on every model of the group, or null when none did
 * @param runnerUp  the next fastest, or null
 * @param note      "not measured" and the like, or null
 */
@PublicApi
public record Recommendation(String family, String model, String host, String hostFingerprint, Precision precision,
                             String target, Option best, Option runnerUp, String note) {

    /**
     * One backend in one lane.
     *
     * @param backend       the backend that ran (and passed)
     * @param browser       the browser lane ({@code chromium}), or null for native
     * @param p50Ms         geometric mean of its p50 over the group's models
     * @param speedupVsCpu  geometric mean of native CPU p50 / its p50 (&gt; 1: faster than the CPU)
     * @param speedupVsWasm the same against wasm in the same browser, or NaN when not measured
     * @param rssPeakBytes  the highest peak RSS measured for it in the group, or -1
     * @param models        how many models it passed on
     * @param speedupVsCpuCi the bootstrap 95 % interval of {@code speedupVsCpu}, or null (too few samples)
     * @param offlineItemsPerSec MLPerf's Offline figure: items per second at the best batch size measured, geometric
     *                      mean over the group's models
     * @param offlineBatch  the batch size that gave it (the largest, when the models disagree)
     */
    public record Option(String backend, String browser, double p50Ms, double speedupVsCpu, double speedupVsWasm,
                         long rssPeakBytes, int models, Interval speedupVsCpuCi,
                         double offlineItemsPerSec, int offlineBatch) {
        /** An option without interval or Offline figure. */
        public Option(String backend, String browser, double p50Ms, double speedupVsCpu, double speedupVsWasm,
                      long rssPeakBytes, int models) {
            this(backend, browser, p50Ms, speedupVsCpu, speedupVsWasm, rssPeakBytes, models, null, Double.NaN, 0);
        }
    }
}
