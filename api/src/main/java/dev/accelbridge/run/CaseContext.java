package dev.accelbridge.run;

import dev.accelbridge.core.LaneId;

import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.Provenance;

/**
 * What every case of one lane shares: the run, the host, and the lane's own provenance (native, or one
 * browser with its driver) used for cases that never executed.
 *
 * @param runId          the run
 * @param host           the host
 * @param laneProvenance provenance of the lane without per-case details
 * @param lane           the lane, as a dimension of every case's identity
 */
public record CaseContext(String runId, HostInfo host, Provenance laneProvenance, LaneId lane) {
}
