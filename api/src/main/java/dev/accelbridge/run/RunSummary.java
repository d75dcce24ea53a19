package dev.accelbridge.run;

import dev.accelbridge.core.RunResult;

import java.util.List;

/**
 * A finished run.
 *
 * @param runId   its id in the store
 * @param results every case of the run (including those written before a resume)
 * @param wallMs  wall-clock time of this invocation
 */
public record RunSummary(String runId, List<RunResult> results, double wallMs) {
}
