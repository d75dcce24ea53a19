package dev.accelbridge.reports.render;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.Status;

import java.time.Instant;

/**
 * One past result of a cell.
 *
 * @param runId     its run
 * @param startedAt when
 * @param p50Ms     warm p50 (NaN when it did not execute)
 * @param status    its status
 */
@PublicApi
public record HistoryPoint(String runId, Instant startedAt, double p50Ms, Status status) {
}
