package dev.accelbridge.browser.provider;

import dev.accelbridge.bridge.hub.PageJobException;
import dev.accelbridge.bridge.protocol.PageProbe;
import dev.accelbridge.core.BackendException;
import dev.accelbridge.core.BackendException.Phase;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.ExecutionFailedException;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.OrtStatusCode;
import dev.accelbridge.core.UnsupportedModelException;
import dev.accelbridge.suites.onnx.KernelGap;

import java.util.regex.Pattern;

/**
 * What a page job's failure means for the case and for the browser: each {@link PageJobException} becomes the core
 * exception its case is judged by (with the browser build, onnxruntime-web version and adapter in its message, and the
 * limit for an out-of-memory error) and what the provider must do before the next case.
 */
final class PageFailures {
    /** ORT-web messages that mean the model uses something this EP lacks (the backend itself works): ORT's own, and the web EPs'. */
    private static final Pattern UNSUPPORTED = Pattern.compile(
            "(?i)(" + UnsupportedModelException.ORT_WORDS + "|not supported|no kernel|shader-f16|f16 is not)");
    /**
     * What onnxruntime-web says when its build has no such execution provider (1.17.0: "WEBNN execution provider is not
     * supported in this build") or the provider cannot start in this browser (1.18.0's WebGPU in Chromium 131 and later:
     * "no available backend found. ERR: [webgpu] TypeError: n.requestAdapterInfo is not a function").
     */
    private static final Pattern NO_PROVIDER = Pattern.compile(
            "(?i)(no available backend found|execution provider is not supported in this build)");
    /** What onnxruntime-web, Emscripten and the browser say when memory runs out. */
    private static final Pattern OUT_OF_MEMORY = Pattern.compile(
            "(?i)(out of memory|\\boom\\b|Aborted\\(OOM\\)|allocation failed|failed to allocate|Cannot enlarge memory"
                    + "|RangeError: Array buffer|WebAssembly.Memory\\(\\): could not allocate|memory access out of bounds)");

    /** What the provider does before the next case. */
    enum Then {
        /**
         * Nothing to restart: this page's onnxruntime-web cannot start the execution provider at all, which every later
         * case on it would only learn again (the provider remembers it: {@link #noProvider}).
         */
        NO_PROVIDER,
        /** Kill the browser (it hung) and relaunch it. */
        KILL_AND_RESTART,
        /** Relaunch the browser (it crashed, left, or lost its device). */
        RESTART,
        /** Give the next case a fresh page: the page's runtime state is not trusted. */
        FRESH_PAGE,
        /** Nothing: onnxruntime-web refused the session cleanly, the page's state is as before. */
        NEXT_CASE,
        /** An inference threw: the page keeps the next case only if it still answers {@link PageCheck} exactly. */
        CHECK_PAGE
    }

    /** The case's exception and the provider's next step. */
    record Failure(BackendException exception, Then then) {
    }

    private PageFailures() {
    }

    /**
     * @param where        the environment, for the message: {@code [chromium 156 via playwright, onnxruntime-web 1.30.0]}
     * @param processState {@code ; browser process still running} or {@code ; browser process is gone}, or empty
     */
    static Failure of(PageJobException pj, Phase phase, BackendId backend, ModelSpec model, PageProbe probe, String where,
                      String processState) {
        String what = " (" + model.name() + " on " + backend;
        return switch (pj.kind()) {
            case TIMEOUT -> new Failure(new ExecutionFailedException(phase == Phase.LOAD ? Phase.LOAD : Phase.TIMEOUT, "Timed out "
                    + (phase == Phase.LOAD ? "creating the session" : "running") + ": " + pj.getMessage() + what + ")" + where,
                    pj.fix(), pj), Then.KILL_AND_RESTART);
            case DISCONNECTED -> new Failure(new ExecutionFailedException(Phase.CRASH, "Browser crashed or page left: " + pj.getMessage()
                    + processState + what + ")" + where, pj.fix(), pj), Then.RESTART);
            case DEVICE_LOST -> new Failure(new ExecutionFailedException(Phase.CRASH, "GPU device lost: " + pj.getMessage() + processState
                    + what + "; a device is lost when it runs out of memory: the adapter's maxBufferSize is "
                    + probe.webgpu().limits().get("maxBufferSize") + " bytes)" + where, pj.fix(), pj), Then.RESTART);
            // the page may still be sending what was refused
            case TRANSFER -> new Failure(new ExecutionFailedException(Phase.TRANSFER, "The outputs could not cross from the page: "
                    + pj.getMessage() + what + ")" + where, pj.fix(), pj), Then.FRESH_PAGE);
            case PAGE_ERROR -> phase == Phase.LOAD && NO_PROVIDER.matcher(pj.getMessage()).find()
                    ? new Failure(noProvider(backend, model, pj.getMessage(), where, pj), Then.NO_PROVIDER)
                    : new Failure(pageError(pj, phase, backend, model, probe, where), afterPageError(pj, phase));
        };
    }

    /**
     * What a page error leaves: a clean refusal at session creation nothing; a failed inference a page to check; anything
     * else (a session creation that threw, memory run out) a fresh page.
     */
    static Then afterPageError(PageJobException pj, Phase phase) {
        if (pj.refusedBuffer().isPresent()) {
            // the device was handed an invalid buffer and the work that used it: found when tried, the next WebGPU case in a
            // fresh page of the same browser waited 33 s on the GPU process; a new browser has a new one
            return Then.RESTART;
        }
        return afterPageError(pj.getMessage(), phase);
    }

    /** What a page error leaves, from the page's words alone (no buffer was refused). */
    static Then afterPageError(String message, Phase phase) {
        if (OUT_OF_MEMORY.matcher(message).find()) {
            return Then.FRESH_PAGE;
        }
        if (phase == Phase.LOAD) {
            // a refusal returned while the model was read and checked leaves the page as it was; one thrown mid-way may not
            return OrtStatusCode.ofSessionRefusal(message).filter(OrtStatusCode::cleanRefusal).isPresent() ? Then.NEXT_CASE : Then.FRESH_PAGE;
        }
        return Then.CHECK_PAGE;
    }

    /** The case's UNSUPPORTED verdict when the page's onnxruntime-web cannot start {@code backend}'s provider ({@code msg}: its error). */
    static UnsupportedModelException noProvider(BackendId backend, ModelSpec model, String msg, String where, Throwable cause) {
        return new UnsupportedModelException("This onnxruntime-web has no " + backend + " execution provider that starts in this "
                + "browser: " + msg + " (" + model.name() + ")" + where, "run an onnxruntime-web release whose " + backend
                + " provider works here ('accelbridge bisect-versions' finds where it changed)", cause);
    }

    private static BackendException pageError(PageJobException pj, Phase phase, BackendId backend, ModelSpec model, PageProbe probe,
                                              String where) {
        String msg = pj.getMessage();
        if (pj.refusedBuffer().isPresent()) {
            PageJobException.RefusedBuffer over = pj.refusedBuffer().get();
            return new UnsupportedModelException(Phase.FIT, String.format(java.util.Locale.ROOT, "the engine asked the WebGPU device for "
                    + "a buffer of %,d bytes, above its %s of %,d bytes", over.bytes(), over.limit(), over.limitBytes())
                    + " (" + model.name() + " on " + backend + "); then: " + msg + where,
                    "run it on wasm, or on an adapter with larger buffer limits", pj);
        }
        if (OUT_OF_MEMORY.matcher(msg).find()) {
            // "memory access out of bounds" is how a failed allocation inside wasm32 usually surfaces (seen here for a
            // 1.2 GB intermediate); it is named as a memory fault, with the limit it most likely hit
            return new ExecutionFailedException(phase, "Out of memory (or a memory fault) in the page while " + (phase == Phase.LOAD
                    ? "creating the session" : "running") + ": " + msg + " (" + model.name() + " on " + backend
                    + "; onnxruntime-web's wasm32 memory is at most 4 GiB" + (backend == BackendId.WEBGPU
                    ? ", the adapter's maxBufferSize " + probe.webgpu().limits().get("maxBufferSize") + " bytes" : "")
                    + ")" + where, "run a smaller input or model, or a lane with more memory", pj);
        }
        if (phase == Phase.LOAD && UNSUPPORTED.matcher(msg).find()) {
            return new UnsupportedModelException("onnxruntime-web cannot run " + model.name() + " on " + backend + ": " + msg
                    + KernelGap.describe(model.path(), msg).map(k -> " (" + k + ")").orElse("") + where,
                    "this model needs an op or type the " + backend + " provider lacks; try wasm", pj);
        }
        return new ExecutionFailedException(phase, (phase == Phase.LOAD ? "Session creation failed: " : "Inference failed: ")
                + msg + " (" + model.name() + " on " + backend + ")" + where, null, pj);
    }
}
