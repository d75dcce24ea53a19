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
 */
public record ExecutionRequest(BackendId backend, ModelCase modelCase, int warmups, int iterations, Duration timeout) {
    public ExecutionRequest {
        if (iterations < 1) {
            throw new AccelbridgeException("iterations must be at least 1, got " + iterations, "pass --iterations N with N >= 1");
        }
        if (warmups < 0) {
            throw new AccelbridgeException("warm-up count must not be negative, got " + warmups, "pass --warmups N with N >= 0");
        }
    }
}
