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

    private final OrtSession.RunOptions options;
    private final ScheduledFuture<?> stop;
    private volatile boolean stopped;
    private boolean closed;

    /** Runs made with {@link #options()} are stopped at {@code deadlineNanos} ({@link System#nanoTime}; MAX_VALUE: never). */
    RunGuard(long deadlineNanos) throws OrtException {
        this.options = new OrtSession.RunOptions();
        long in = deadlineNanos == Long.MAX_VALUE ? -1 : Math.max(0, deadlineNanos - System.nanoTime());
        this.stop = in < 0 ? null : TIMER.schedule(this::terminate, in, TimeUnit.NANOSECONDS);
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
    }
}
