package dev.accelbridge.nativerunner;

import ai.djl.inference.Predictor;
import ai.djl.ndarray.NDArray;
import ai.djl.ndarray.NDList;
import ai.djl.nn.Block;
import ai.djl.training.ParameterStore;
import ai.djl.translate.TranslateException;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OnnxValue;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import dev.accelbridge.core.BackendException.Phase;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.ExecutionFailedException;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Settling;
import dev.accelbridge.core.TimeBudget;
import dev.accelbridge.core.UnsupportedModelException;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The runs of one loaded model on its inputs, in their order: the output now held (each run's replaces the last, which
 * is closed first), the deadline (narrowed once the first inference is known), and when progress was last told.
 */
final class NativePasses {
    /** The warm-up's runs and how long they took, all of them. */
    record WarmUp(Settling.Loop loop, double ms) {
    }

    private final ExecutionRequest request;
    private final ModelSpec spec;
    private final BackendId backend;
    private final Predictor<NDList, NDList> predictor;
    private final NDList inputs;
    private final List<NamedTensor> ordered;
    private long deadline;
    private final OrtSession session;
    private final Map<String, OnnxTensor> feeds;
    private final RunGuard guard;
    private NDList out;
    private long lastProgress;

    NativePasses(ExecutionRequest request, ModelSpec spec, BackendId backend, Predictor<NDList, NDList> predictor, NDList inputs,
                 List<NamedTensor> ordered, long deadline, OrtSession session, Map<String, OnnxTensor> feeds, RunGuard guard) {
        this.request = request;
        this.spec = spec;
        this.backend = backend;
        this.predictor = predictor;
        this.inputs = inputs;
        this.ordered = ordered;
        this.deadline = deadline;
        this.session = session;
        this.feeds = feeds;
        this.guard = guard;
    }

    /** One untimed-here run: the session's own where it is reached (its result let go), else the predictor's. */
    private void pass() {
        if (session == null) {
            if (out != null) {
                out.close();
            }
            out = predict(predictor, inputs, spec, backend, ordered);
            return;
        }
        try (OrtSession.Result r = run()) {
            // the outputs are read once, after the timed runs (outputs)
        }
    }

    /** The session's run under the guard; the guard's stop is the case's timeout. */
    private OrtSession.Result run() {
        try {
            return session.run(feeds, guard.options());
        } catch (OrtException | RuntimeException e) {
            if (guard.stopped()) {
                guard.awaitExitIfEnding();
                throw RunGuard.timeout(spec, request);
            }
            ExecutionFailedException f = runFailure(spec, backend, e);
            throw new ExecutionFailedException(Phase.RUN, f.getMessage() + " (inputs given: " + ordered + ")", f.fix(), e);
        }
    }

    /** The first inference, timed alone; its time sets the deadline of the warm-ups and timed runs. */
    double first() {
        long s = System.nanoTime();
        pass();
        double firstMs = (System.nanoTime() - s) / 1e6;
        checkDeadline(deadline, request, spec, "the first inference");
        // the warm-ups and timed runs get a deadline derived from the first inference (TimeBudget), under the cap
        deadline = Math.min(deadline, System.nanoTime() + TimeBudget.forTimedRuns(firstMs, request.warmups(),
                request.iterations(), request.durations().budget(), 0).toNanos());
        return firstMs;
    }

    /** At least --warmups and --warmup-duration, then on until the runs stop getting faster (Settling). */
    WarmUp warmUp() {
        lastProgress = System.nanoTime();
        long warmStart = lastProgress;
        Settling.Loop warm = new Settling.Loop(request.warmups(), request.durations());
        while (warm.more(System.nanoTime() - warmStart)) {
            long w0 = System.nanoTime();
            pass();
            warm.add((System.nanoTime() - w0) / 1e6);
            checkDeadline(deadline, request, spec, "warm-up " + warm.done() + " of " + request.warmups());
            if (System.nanoTime() - lastProgress > 1_000_000_000L) {
                lastProgress = System.nanoTime();
                request.progress().update("warmup", warm.done(), request.warmups());
            }
        }
        return new WarmUp(warm, (System.nanoTime() - warmStart) / 1e6);
    }

    /**
     * The timed runs' times: at least --iterations, and on until --min-duration has passed (up to the request's cap);
     * the running sum is of the timed windows only. {@code session} null: the block's forward is timed instead.
     */
    double[] timed(Block block, ParameterStore ps) {
        double[] samples = new double[request.maxSamples()];
        int taken = 0;
        long timedNanos = 0;
        for (int i = 0; request.moreSamples(i, timedNanos); i++) {
            long a;
            long b;
            try {
                if (session != null) {
                    a = System.nanoTime();
                    OrtSession.Result res = run();
                    b = System.nanoTime();
                    res.close();
                } else {
                    out.close();
                    a = System.nanoTime();
                    out = block.forward(ps, inputs, false);
                    b = System.nanoTime();
                }
            } catch (ExecutionFailedException e) {
                throw e; // the guard's timeout, or a run's failure, said once
            } catch (RuntimeException e) {
                throw runFailure(spec, backend, e);
            }
            samples[i] = (b - a) / 1e6;
            timedNanos += b - a;
            taken = i + 1;
            if (b > deadline) {
                checkDeadline(deadline, request, spec, "timed iteration " + (i + 1) + " of at least " + request.iterations());
            }
            if (b - lastProgress > 1_000_000_000L) { // between timed windows, at most once a second
                lastProgress = b;
                request.progress().update("timed", i + 1, request.iterations());
            }
        }
        return Arrays.copyOf(samples, taken);
    }

    /** The outputs checked against the reference, read back untimed; the output held is closed first. */
    List<NamedTensor> outputs() {
        List<NamedTensor> outputs = new ArrayList<>();
        if (out != null) {
            out.close();
        }
        if (session != null) {
            // one more (untimed) run of the same inputs, through ONNX Runtime itself, so every graph output comes back
            // under its name (a model without inputs, or whose outputs are initializers, included) and each is copied
            // onto the heap once
            try (OrtSession.Result res = run()) {
                for (Map.Entry<String, OnnxValue> e : res) {
                    outputs.add(Tensors.fromOrt(e.getValue(), e.getKey()));
                }
            } catch (NativeRunnerException e) {
                throw new UnsupportedModelException(e.getMessage() + " (model '" + spec.name() + "')", e.fix(), e);
            } catch (ExecutionFailedException e) {
                throw e;
            } catch (RuntimeException e) {
                throw runFailure(spec, backend, e);
            }
        } else {
            out = predict(predictor, inputs, spec, backend, ordered);
            for (int k = 0; k < out.size(); k++) {
                NDArray arr = out.get(k);
                try {
                    outputs.add(Tensors.fromNd(arr, "output_" + k));
                } catch (NativeRunnerException e) {
                    throw new UnsupportedModelException(e.getMessage() + " (model '" + spec.name() + "')",
                            e.fix(), e);
                }
            }
            out.close();
        }
        return outputs;
    }

    private static NDList predict(Predictor<NDList, NDList> predictor, NDList inputs, ModelSpec spec, BackendId backend,
                                  List<NamedTensor> given) {
        try {
            return predictor.predict(inputs);
        } catch (TranslateException | RuntimeException e) {
            throw runFailure(spec, backend, e, given);
        }
    }

    /** A run's failure with the inputs it was given. */
    private static ExecutionFailedException runFailure(ModelSpec spec, BackendId backend, Exception e, List<NamedTensor> given) {
        ExecutionFailedException f = runFailure(spec, backend, e);
        return new ExecutionFailedException(Phase.RUN, f.getMessage() + " (inputs given: " + given + ")", f.fix(), e);
    }

    static ExecutionFailedException runFailure(ModelSpec spec, BackendId backend, Exception e) {
        return new ExecutionFailedException(Phase.RUN, "Model '" + spec.name() + "' failed to run on " + backend
                + " (ONNX Runtime " + DjlOnnxRuntimeProvider.environment().ortVersion() + "): " + DjlOnnxRuntimeProvider.oneLine(DjlOnnxRuntimeProvider.rootMessage(e)),
                "check the inputs' names, types and shapes against the model's declared inputs " + spec.inputs(), e);
    }

    static void checkDeadline(long deadline, ExecutionRequest request, ModelSpec spec, String where) {
        if (System.nanoTime() > deadline) {
            throw new ExecutionFailedException(Phase.TIMEOUT, "Model '" + spec.name() + "' on " + request.backend()
                    + " exceeded its time budget after " + where + " (the warm-ups and timed runs may take 30 s + 3 x their count x"
                    + " the first inference; --timeout " + (request.timeout() == null ? "none" : request.timeout().toSeconds() + " s")
                    + " caps the case)", "raise --timeout or lower --iterations / --warmups", null);
        }
    }
}
