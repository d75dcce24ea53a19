package dev.accelbridge.nativerunner;

import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.accelbridge.core.BackendException.Phase;
import dev.accelbridge.core.ExecutionFailedException;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelSpec;

import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * A case's hard deadline over the ONNX Runtime runs Accelbridge makes itself: at the deadline ONNX Runtime is told to stop
 * (its run options' terminate flag), so a run that would not end fails with the case's timeout instead of holding the
 * native thread. Found when tried: a 286-byte model looping 10^12 times held {@code observe}'s judging for ever, since a
 * case's deadline was only checked between runs.
 */
final class RunGuard implements AutoCloseable {
    private static final ScheduledExecutorService TIMER = Executors.newSingleThreadScheduledExecutor(r -> {
        Thread t = new Thread(r, "accelbridge-run-guard");
        t.setDaemon(true);
        return t;
    });

    /**
     * The guards of the runs in flight, each told to stop when the process is stopped from outside or exits: ONNX
     * Runtime's Java binding releases its environment in a shutdown hook of its own, which runs beside every other, so a
     * thread still inside a run crashed the process (found when tried: SIGTERM during a native run that would not end
     * ended in SIGSEGV in libonnxruntime, and a core file, where it should end with the signal's own status, 143). A
     * stopping signal (TERM, INT, HUP) therefore stops the runs first and then goes on as it would have.
     */
    private static final java.util.Set<RunGuard> LIVE = java.util.concurrent.ConcurrentHashMap.newKeySet();
    /** How long the JVM's exit waits for the runs it stopped to leave ONNX Runtime. */
    static final java.time.Duration EXIT_WAIT = java.time.Duration.ofSeconds(5);

    /** Set once the JVM exits: a run guarded from then on is stopped as it starts. */
    private static volatile boolean exiting;

    static {
        Runtime.getRuntime().addShutdownHook(new Thread(RunGuard::stopAll, "accelbridge-run-guard-exit"));
        for (String name : new String[] {"TERM", "INT", "HUP"}) {
            stopRunsFirstOn(name);
        }
    }

    /** Signal {@code name}, as it was handled before, after the runs in flight are stopped; one ignored stays ignored. */
    private static void stopRunsFirstOn(String name) {
        try {
            sun.misc.Signal signal = new sun.misc.Signal(name);
            sun.misc.SignalHandler[] before = new sun.misc.SignalHandler[1];
            before[0] = sun.misc.Signal.handle(signal, s -> {
                stopAll();
                if (before[0] == sun.misc.SignalHandler.SIG_DFL) {
                    Runtime.getRuntime().exit(128 + s.getNumber()); // the JVM's own way to end on it, its hooks run
                } else {
                    before[0].handle(s);
                }
            });
            if (before[0] == sun.misc.SignalHandler.SIG_IGN) {
                sun.misc.Signal.handle(signal, before[0]);
            }
        } catch (IllegalArgumentException | UnsupportedOperationException e) {
            // the signal is the JVM's own here (-Xrs, a platform without it): the exit hook alone stops the runs
        }
    }

    private final OrtSession.RunOptions options;
    private final ScheduledFuture<?> stop;
    private volatile boolean stopped;
    private boolean closed;

    /** Runs made with {@link #options()} are stopped at {@code deadlineNanos} ({@link System#nanoTime}; MAX_VALUE: never). */
    RunGuard(long deadlineNanos) throws OrtException {
        this.options = new OrtSession.RunOptions();
        long in = deadlineNanos == Long.MAX_VALUE ? -1 : Math.max(0, deadlineNanos - System.nanoTime());
        this.stop = in < 0 ? null : TIMER.schedule(this::terminate, in, TimeUnit.NANOSECONDS);
        LIVE.add(this);
        if (exiting) {
            terminate();
        }
    }

    /** Every run in flight told to stop, and waited on for at most {@link #EXIT_WAIT} to leave ONNX Runtime. */
    static void stopAll() {
        exiting = true;
        LIVE.forEach(RunGuard::terminate);
        long end = System.nanoTime() + EXIT_WAIT.toNanos();
        while (!LIVE.isEmpty() && System.nanoTime() < end) {
            try {
                Thread.sleep(20);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
    }

    private synchronized void terminate() {
        if (closed) {
            return;
        }
        stopped = true;
        try {
            options.setTerminate(true);
        } catch (OrtException | RuntimeException e) {
            // the flag could not be set: the case's deadline is still checked between runs
        }
    }

    /** The options every guarded run is made with. */
    OrtSession.RunOptions options() {
        return options;
    }

    /** Whether a run's failure is this guard's stop: the case's timeout. */
    boolean stopped() {
        return stopped;
    }

    /**
     * Where this guard stopped its run because the process is ending: the run has left ONNX Runtime, so the exit may go on,
     * and its thread waits for it here, so nothing is recorded of a run the process's end stopped (no row says it timed
     * out). Returns at once otherwise.
     */
    void awaitExitIfEnding() {
        if (!exiting) {
            return;
        }
        LIVE.remove(this);
        while (true) {
            try {
                Thread.sleep(Long.MAX_VALUE);
            } catch (InterruptedException e) {
                // the process is ending: nothing more of this run
            }
        }
    }

    /** The failure of a case this guard stopped. */
    static ExecutionFailedException timeout(ModelSpec spec, ExecutionRequest request) {
        return new ExecutionFailedException(Phase.TIMEOUT, "Model '" + spec.name() + "' on " + request.backend()
                + " did not finish a run within its timeout of " + request.timeout().toSeconds() + " s: ONNX Runtime was told to stop it",
                "raise --timeout if the model is this slow", null);
    }

    @Override
    public void close() {
        if (stop != null) {
            stop.cancel(false);
        }
        synchronized (this) {
            closed = true;
            options.close();
        }
        LIVE.remove(this);
    }
}
