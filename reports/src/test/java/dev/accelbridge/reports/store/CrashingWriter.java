package dev.accelbridge.reports.store;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;

import static dev.accelbridge.reports.Fixtures.*;

/** Child process of the crash test: begins a run, writes three cases, then dies without closing anything. */
public final class CrashingWriter {
    static final int EXIT = 137;

    public static void main(String[] args) throws Exception {
        HostInfo h = host("crashy");
        MatrixStore s = MatrixStore.open(Path.of(args[0]));
        String run = s.beginRun(h, Map.of(), "{\"cases\":4}");
        Files.writeString(Path.of(args[1]), run);
        s.write(passed(run, t(0), h, ModelFamily.TEXT, "bert", BackendId.CPU, nativeProv(h), samples(2, 0.1, 10, 1)));
        s.write(passed(run, t(1), h, ModelFamily.VISION, "convnet", BackendId.CPU, nativeProv(h), samples(3, 0.1, 10, 2)));
        s.write(passed(run, t(2), h, ModelFamily.VISION, "convnet", BackendId.WASM, chromiumProv(h, false), samples(4, 0.1, 10, 3)));
        Runtime.getRuntime().halt(EXIT); // like SIGKILL: no shutdown hooks, no close, no checkpoint
    }
}
