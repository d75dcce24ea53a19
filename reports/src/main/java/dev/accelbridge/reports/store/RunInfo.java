package dev.accelbridge.reports.store;

import java.time.Instant;
import java.util.Map;

/**
 * One run's bookkeeping row.
 *
 * @param runId           the id {@link MatrixStore#beginRun} returned
 * @param startedAt       when it began
 * @param finishedAt      when it finished; null unless FINISHED
 * @param status          running, finished or interrupted
 * @param hostFingerprint the host it ran on
 * @param toolkitVersion  the Accelbridge version
 * @param runtimeVersions component → version
 * @param planJson        the plan as given to beginRun
 * @param results         number of results stored for it
 */
public record RunInfo(String runId, Instant startedAt, Instant finishedAt, RunStatus status, String hostFingerprint,
                      String toolkitVersion, Map<String, String> runtimeVersions, String planJson, int results) {
    public RunInfo {
        runtimeVersions = runtimeVersions == null ? Map.of() : Map.copyOf(runtimeVersions);
    }
}
