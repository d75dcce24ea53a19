package dev.accelbridge.core;

import java.time.Duration;

/**
 * Ask a provider to run one case on one backend.
 *
 * @param backend    the backend to run on (not a chain: the resolver has already chosen)
 * @param modelCase  model and inputs
 * @param warmups    warm-up iterations (run, not timed)
 * @param iterations timed iterations
 * @param timeout    for the whole case (load, warm-up, timed)
 * @param threads    intra-op threads the runtime should use (the same on both sides of a browser-vs-native
 *                   comparison); null for the runtime's default
 */
public record ExecutionRequest(BackendId backend, ModelCase modelCase, int warmups, int iterations, Duration timeout,
                               Integer threads) {
    /** A request with the runtime's default thread count. */
    public ExecutionRequest(BackendId backend, ModelCase modelCase, int warmups, int iterations, Duration timeout) {
        this(backend, modelCase, warmups, iterations, timeout, null);
    }

    public ExecutionRequest {
        if (threads != null && threads < 1) {
            throw new AccelbridgeException("threads must be at least 1, got " + threads, "pass --threads N with N >= 1");
        }
        if (iterations < 1) {
            throw new AccelbridgeException("iterations must be at least 1, got " + iterations, "pass --iterations N with N >= 1");
        }
        if (warmups < 0) {
            throw new AccelbridgeException("warm-up count must not be negative, got " + warmups, "pass --warmups N with N >= 0");
        }
    }
}
