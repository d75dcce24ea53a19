package dev.accelbridge.reports.store;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static dev.accelbridge.reports.Fixtures.*;

/**
 * Child process of the sharing test: a run as {@code accelbridge run} holds the store (opened per operation), writes
 * a case, says its run id, waits until told to go on, writes a second case and finishes.
 */
public final class LiveRunWriter {
    public static void main(String[] args) throws Exception {
        HostInfo h = host("live");
        Path go = Path.of(args[2]);
        try (MatrixStore s = MatrixStore.openForRun(Path.of(args[0]))) {
            String run = s.beginRun(h, Map.of(), "{}");
            s.write(passed(run, t(0), h, ModelFamily.TEXT, "bert", BackendId.CPU, nativeProv(h), samples(2, 0.1, 10, 1)));
            Files.writeString(Path.of(args[1]), run);
            long deadline = System.currentTimeMillis() + 60_000;
            while (!Files.exists(go) && System.currentTimeMillis() < deadline) {
                Thread.sleep(20);
            }
            s.write(passed(run, t(1), h, ModelFamily.VISION, "convnet", BackendId.CPU, nativeProv(h), samples(3, 0.1, 10, 2)));
            s.finishRun(run);
        }
    }
}
