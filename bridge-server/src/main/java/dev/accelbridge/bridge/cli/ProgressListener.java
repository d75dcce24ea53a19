package dev.accelbridge.bridge.cli;

import dev.accelbridge.bridge.run.RunListener;
import dev.accelbridge.core.RunResult;

import java.io.PrintWriter;
import java.util.Locale;

/** One line per finished case on stderr: readable in a terminal and in a CI log alike. */
final class ProgressListener implements RunListener {
    private final PrintWriter err;

    ProgressListener(PrintWriter err) {
        this.err = err;
    }

    @Override
    public void started(String runId, int total, int skipped) {
        err.printf(Locale.ROOT, "run %s: %d cases%s%n", runId, total, skipped > 0 ? " (" + skipped + " already done)" : "");
        err.flush();
    }

    @Override
    public void info(String message) {
        err.println("  " + message);
        err.flush();
    }

    @Override
    public void caseFinished(RunResult r, int done, int total) {
        String where = r.provenance() == null || r.provenance().browser() == null ? "native" : r.provenance().browser();
        String figures = r.timings() == null ? "" : String.format(Locale.ROOT, " p50 %.3f ms", r.timings().p50Ms());
        String actual = r.actual() != null && r.actual() != r.requested() ? " -> " + r.actual().id() : "";
        err.printf(Locale.ROOT, "[%d/%d] %s/%s %s%s (%s): %s%s%n", done, total, r.suite().id(), r.model(),
                r.requested().id(), actual, where, r.status(), figures);
        err.flush();
    }
}
