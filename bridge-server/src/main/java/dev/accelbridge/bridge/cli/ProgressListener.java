package dev.accelbridge.bridge.cli;

import dev.accelbridge.bridge.run.RunListener;
import dev.accelbridge.core.RunResult;
import me.tongfei.progressbar.ConsoleProgressBarConsumer;
import me.tongfei.progressbar.ProgressBar;
import me.tongfei.progressbar.ProgressBarBuilder;
import me.tongfei.progressbar.ProgressBarStyle;

import java.io.PrintWriter;
import java.util.Locale;

/**
 * Progress on stderr: a progress bar in an interactive terminal, one line per finished case otherwise (CI logs,
 * pipes), so a log keeps every case's status while a person at a terminal sees one moving line.
 */
final class ProgressListener implements RunListener, AutoCloseable {
    private final PrintWriter err;
    private final boolean interactive;
    private final boolean quiet;
    private ProgressBar bar;
    private dev.accelbridge.core.MinDurations durations = dev.accelbridge.core.MinDurations.NONE;

    ProgressListener(PrintWriter err, boolean quiet) {
        this(err, Terminal.interactive(), quiet);
    }

    /** {@code quiet}: nothing while the run goes ({@code --quiet}, for CI logs); the table and summary still come. */
    ProgressListener(PrintWriter err, boolean interactive, boolean quiet) {
        this.err = err;
        this.interactive = interactive && !quiet;
        this.quiet = quiet;
    }

    /** The run's sampling rule, so a loop a least duration runs past its count is said as such. */
    void sampling(dev.accelbridge.core.MinDurations d) {
        this.durations = d;
    }

    @Override
    public void started(String runId, int total, int skipped) {
        if (quiet) {
            return;
        }
        err.printf(Locale.ROOT, "run %s: %d cases%s%n", runId, total, skipped > 0 ? " (" + skipped + " already done)" : "");
        err.flush();
        if (interactive) {
            bar = new ProgressBarBuilder().setTaskName("cases").setInitialMax(total).startsFrom(skipped, java.time.Duration.ZERO)
                    .setStyle(ProgressBarStyle.ASCII).setConsumer(new ConsoleProgressBarConsumer(System.err))
                    .setUpdateIntervalMillis(250).build();
        }
    }

    @Override
    public void info(String message) {
        message = dev.accelbridge.reports.render.Text.terminal(message);
        if (quiet) {
            return;
        }
        if (bar != null) {
            bar.setExtraMessage(message);
            return;
        }
        err.println("  " + message);
        err.flush();
    }

    @Override
    public void caseProgress(dev.accelbridge.core.CaseId id, dev.accelbridge.core.BackendId hop, String phase, int done, int total) {
        if (quiet) {
            return;
        }
        String line = dev.accelbridge.reports.render.Text.terminal(String.format(Locale.ROOT, "%s %s (%s): %s", id.row(),
                hop.id(), id.lane().key(), durations.progress(phase, done, total)));
        if (bar != null) {
            bar.setExtraMessage(line);
            return;
        }
        err.println("  " + line);
        err.flush();
    }

    @Override
    public void caseFinished(RunResult r, int done, int total) {
        if (quiet) {
            return;
        }
        String where = r.lane().key();
        String figures = r.timings() == null ? "" : String.format(Locale.ROOT, " p50 %.3f ms", r.timings().p50Ms());
        String actual = r.actual() != null && r.actual() != r.requested() ? " -> " + r.actual().id() : "";
        String dims = r.id().dimensionsTag();
        String line = dev.accelbridge.reports.render.Text.terminal(String.format(Locale.ROOT, "%s %s%s%s (%s): %s%s", r.id().row(),
                r.requested().id(), dims, actual, where, r.status(), figures));
        if (bar != null) {
            bar.stepTo(done);
            bar.setExtraMessage(line);
            if (done >= total) {
                close();
            }
            return;
        }
        err.printf(Locale.ROOT, "[%d/%d] %s%n", done, total, line);
        err.flush();
    }

    @Override
    public void close() {
        if (bar != null) {
            bar.close();
            bar = null;
        }
    }
}
