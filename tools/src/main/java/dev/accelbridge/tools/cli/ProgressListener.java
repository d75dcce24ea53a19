package dev.accelbridge.tools.cli;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.MinDurations;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.render.Text;
import dev.accelbridge.run.RunListener;
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
    private MinDurations durations = MinDurations.NONE;
    private final java.util.function.LongSupplier nanos;
    /** In a log, each running case's last line (or its start), by lane and case. */
    private final java.util.Map<String, Long> lastLine = new java.util.HashMap<>();
    /** In a log, when each lane's running case began: its previous case's end, or the run's start. */
    private final java.util.Map<String, Long> laneSince = new java.util.HashMap<>();
    private long runStart;

    /** How long a case runs in a log (not a terminal) before its next heartbeat line. */
    static final java.time.Duration LOG_EVERY = java.time.Duration.ofSeconds(5);

    ProgressListener(PrintWriter err, boolean quiet) {
        this(err, Terminal.interactive(), quiet);
    }

    /** {@code quiet}: nothing while the run goes ({@code --quiet}, for CI logs); the table and summary still come. */
    ProgressListener(PrintWriter err, boolean interactive, boolean quiet) {
        this(err, interactive, quiet, System::nanoTime);
    }

    ProgressListener(PrintWriter err, boolean interactive, boolean quiet, java.util.function.LongSupplier nanos) {
        this.err = err;
        this.interactive = interactive && !quiet;
        this.quiet = quiet;
        this.nanos = nanos;
    }

    /** The run's sampling rule, so a loop a least duration runs past its count is said as such. */
    void sampling(MinDurations d) {
        this.durations = d;
    }

    @Override
    public void started(String runId, int total, int skipped) {
        if (quiet) {
            return;
        }
        runStart = nanos.getAsLong();
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
        message = Text.terminal(message);
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
    public void caseProgress(CaseId id, BackendId hop, String phase, int done, int total) {
        if (quiet) {
            return;
        }
        String line = Text.terminal(String.format(Locale.ROOT, "%s %s (%s): %s", id.row(),
                hop.id(), id.lane().key(), durations.progress(phase, done, total)));
        if (bar != null) {
            bar.setExtraMessage(line);
            return;
        }
        // in a log a case is its one line when it ends (caseFinished) and a heartbeat every LOG_EVERY while it runs (found
        // when tried: a line per timed run, 1,500 at --iterations 1500, and 101 for a loop a least duration ran past its count)
        String key = id.lane().key() + "|" + id.row();
        long now = nanos.getAsLong();
        long since = lastLine.computeIfAbsent(key, k -> laneSince.getOrDefault(id.lane().key(), runStart));
        if (now - since < LOG_EVERY.toNanos()) {
            return;
        }
        lastLine.put(key, now);
        err.println("  " + line);
        err.flush();
    }

    @Override
    public void caseFinished(RunResult r, int done, int total) {
        if (quiet) {
            return;
        }
        String where = r.lane().key();
        lastLine.remove(where + "|" + r.id().row());
        laneSince.put(where, nanos.getAsLong());
        String figures = r.timings().map(t -> String.format(Locale.ROOT, " p50 %.3f ms", t.p50Ms())).orElse("");
        String actual = r.actual().filter(b -> r.ranElsewhere()).map(b -> " -> " + b.id()).orElse("");
        String dims = r.id().dimensionsTag();
        String line = Text.terminal(String.format(Locale.ROOT, "%s %s%s%s (%s): %s%s", r.id().row(),
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
