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
    private ProgressBar bar;

    ProgressListener(PrintWriter err) {
        this(err, System.console() != null && System.getenv("CI") == null);
    }

    ProgressListener(PrintWriter err, boolean interactive) {
        this.err = err;
        this.interactive = interactive;
    }

    @Override
    public void started(String runId, int total, int skipped) {
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
        if (bar != null) {
            bar.setExtraMessage(message);
            return;
        }
        err.println("  " + message);
        err.flush();
    }

    @Override
    public void caseProgress(dev.accelbridge.core.CaseId id, dev.accelbridge.core.BackendId hop, String phase, int done, int total) {
        String line = dev.accelbridge.reports.render.Text.terminal(String.format(Locale.ROOT, "%s %s (%s): %s %d of %d", id.row(),
                hop.id(), id.lane().key(), phase.equals("timed") ? "timed iteration" : "warm-up", done, total));
        if (bar != null) {
            bar.setExtraMessage(line);
            return;
        }
        err.println("  " + line);
        err.flush();
    }

    @Override
    public void caseFinished(RunResult r, int done, int total) {
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
