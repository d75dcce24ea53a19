package dev.accelbridge.run;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.RunResult;

/** Progress of a run, for the terminal (progress bar, table) or a test. */
@PublicApi
public interface RunListener {
    /** The run starts with {@code total} cases ({@code skipped} already done in a resumed run). */
    default void started(String runId, int total, int skipped) {
    }

    /** Something worth telling the user (a browser starting, a probe's answer). */
    default void info(String message) {
    }

    /**
     * A running case is at {@code done} of {@code total} runs of {@code phase} ({@code warmup}, {@code timed}); providers
     * report at most once a second, so only cases longer than that say anything.
     */
    default void caseProgress(CaseId id, BackendId hop, String phase, int done, int total) {
    }

    /** One case was written to the store. */
    default void caseFinished(RunResult result, int done, int total) {
    }

    /** Listens to nothing. */
    RunListener NONE = new RunListener() {
    };
}
