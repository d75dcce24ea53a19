package dev.accelbridge.nativerunner;

import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Supplier;

/**
 * Runs ONNX Runtime work on one daemon thread with a large stack. ORT's environment creation and session
 * loading use deep native stacks; on the JVM's main thread (whose usable stack shrinks as the command line
 * grows, e.g. with a long class path) it overflowed and killed the process with SIGSEGV and no hs_err file.
 * One thread also keeps ORT's thread-local state in one place; timings are still taken around each native
 * call on that thread, so the hand-off is not counted.
 */
final class NativeThread {
    /** 64 MiB: far above what ORT needs, reserved virtually, not committed. */
    static final long STACK_BYTES = 64L << 20;

    private static final ExecutorService EXECUTOR = Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(null, r, "accelbridge-native", STACK_BYTES);
        t.setDaemon(true);
        return t;
    });

    private NativeThread() {
    }

    /** Runs {@code work} on the native thread (directly when already on it) and returns its result. */
    static <T> T call(Supplier<T> work) {
        if (Thread.currentThread().getName().equals("accelbridge-native")) {
            return work.get();
        }
        Future<T> f = EXECUTOR.submit(work::get);
        try {
            return f.get();
        } catch (InterruptedException e) {
            f.cancel(true);
            Thread.currentThread().interrupt();
            throw new NativeRunnerException("Interrupted while ONNX Runtime was working", null, e);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            if (c instanceof RuntimeException re) {
                throw re;
            }
            if (c instanceof LinkageError err) {
                // a native library or class DJL could not load (measured: its tokenizers' CUDA build, not carried, on a
                // CUDA host offline): this case's failure, said with its cause; the run goes on to the next case
                throw new NativeRunnerException("ONNX Runtime could not be loaded: " + rootOf(err), null, err);
            }
            if (c instanceof Error err) {
                throw err;
            }
            throw new NativeRunnerException("ONNX Runtime work failed: " + c, null, c);
        }
    }

    private static String rootOf(Throwable t) {
        Throwable r = t;
        while (r.getCause() != null && r.getCause() != r) {
            r = r.getCause();
        }
        return r == t ? t.toString() : t.getClass().getSimpleName() + " (" + r + ")";
    }
}
