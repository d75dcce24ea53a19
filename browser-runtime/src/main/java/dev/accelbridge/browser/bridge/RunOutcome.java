package dev.accelbridge.browser.bridge;

import dev.accelbridge.core.NamedTensor;

import java.util.List;

/**
 * What a page reports for a {@code run} job; every time is measured in the page with {@code performance.now()}
 * around {@code await session.run(feeds)}.
 *
 * @param firstMs    the session's first run (NaN when the session had run before)
 * @param warmups    warm-up runs after the first, not timed
 * @param samplesMs  the timed runs, in order
 * @param outputs    the outputs of the last timed run, in the session's output order
 * @param warnings   ORT's warnings during the job
 * @param jsHeapBytes {@code performance.memory.usedJSHeapSize} after the runs, or -1 where the browser has none
 */
public record RunOutcome(double firstMs, int warmups, double[] samplesMs, List<NamedTensor> outputs, List<String> warnings,
                         long jsHeapBytes) {
    public RunOutcome {
        samplesMs = samplesMs.clone();
        outputs = List.copyOf(outputs);
        warnings = List.copyOf(warnings);
    }
}
