package dev.accelbridge.core;

import java.time.Instant;
import java.util.List;

/**
 * One case's result, as a value (like JUnit's {@code TestExecutionResult}): status, reason and provenance,
 * and the figures when it executed. Everything numeric comes from a real execution; what did not execute
 * has null timings and parity, never placeholders.
 *
 * @param runId        the run this case belongs to
 * @param startedAt    when the case started
 * @param suite        the model family
 * @param model        the model name
 * @param inputSet     the input set name
 * @param modelSha256  the exact model file that ran
 * @param requested    the backend the user asked for
 * @param actual       the backend that ran it (null when nothing ran)
 * @param status       the case status
 * @param reason       why: the error, the probe's evidence, the fallback reason; null for a plain PASSED
 * @param provenance   host, browser, driver, adapter, versions
 * @param timings      null when nothing executed
 * @param memory       process memory, {@link MemoryUsage#UNKNOWN} when not measurable
 * @param parity       divergence from the reference; null when nothing executed or for the reference itself
 * @param fallbackPath every hop considered, in order, with its reason (one hop when no fallback happened)
 * @param warnings     runtime warnings
 */
public record RunResult(String runId, Instant startedAt, ModelFamily suite, String model, String inputSet,
                        String modelSha256, BackendId requested, BackendId actual, Status status, String reason,
                        Provenance provenance, Timings timings, MemoryUsage memory, Parity parity,
                        List<FallbackHop> fallbackPath, List<String> warnings) {
    public RunResult {
        fallbackPath = fallbackPath == null ? List.of() : List.copyOf(fallbackPath);
        warnings = warnings == null ? List.of() : List.copyOf(warnings);
        memory = memory == null ? MemoryUsage.UNKNOWN : memory;
    }

    /** The matrix key of this case's cell, without the host: {@code suite/model/requested/browser}. */
    public String cellKey() {
        return suite.id() + "/" + model + "/" + requested.id() + "/" + (provenance == null ? "native" : provenance.browserLabel());
    }

    /** The same result with another status and reason (used when parity or fallback decides the final status). */
    public RunResult withStatus(Status newStatus, String newReason) {
        return new RunResult(runId, startedAt, suite, model, inputSet, modelSha256, requested, actual, newStatus,
                newReason, provenance, timings, memory, parity, fallbackPath, warnings);
    }
}
