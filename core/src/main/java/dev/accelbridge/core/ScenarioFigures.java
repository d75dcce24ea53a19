package dev.accelbridge.core;

/**
 * What a case's scenario adds to its timings, one kind per {@link Scenario} kind: nothing for a single pass
 * ({@link #SINGLE_PASS}), its own figures for a generation ({@link Decoding}: TTFT, inter-token latency, tokens/s, the cold
 * generation, the KV cache). A reader that needs a generation's figures asks with {@code instanceof Decoding}, which the
 * tools' dispatch test counts, as it counts who asks a case's scenario its kind.
 */
public sealed interface ScenarioFigures permits ScenarioFigures.SinglePass, Decoding {
    /** A single pass: its timed runs say all. */
    record SinglePass() implements ScenarioFigures {
    }

    /** The single pass's figures: none of their own. */
    SinglePass SINGLE_PASS = new SinglePass();
}
