package dev.accelbridge.reports.render;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.store.MatrixStore;

import java.util.Map;

import static dev.accelbridge.reports.Fixtures.*;

/**
 * Fills a store with hand-constructed results: five runs on host "alpha" (the last with a 25 % webgpu slowdown; the
 * seeded samples give the runs a realistic ≈1 % run-to-run spread).
 */
final class ReportFixture {
    /** Runs written: four earlier runs make a baseline the detector trusts. */
    static final int RUNS = 5;

    private ReportFixture() {
    }

    static String fill(MatrixStore s) {
        HostInfo h = host("alpha");
        String last = null;
        for (int run = 0; run < RUNS; run++) {
            last = s.beginRun(h, Map.of("accelbridge", "0.1.0"), "{}");
            writeRun(s, last, h, run * 60, run == RUNS - 1 ? 1.25 : 1.0);
            s.finishRun(last);
        }
        return last;
    }

    private static void writeRun(MatrixStore s, String run, HostInfo h, int minute, double webgpuFactor) {
        s.write(passed(run, t(minute), h, ModelFamily.TEXT, "bert-tiny", BackendId.CPU, nativeProv(h), samples(2.0, 0.05, 30, minute + 1)));
        s.write(passed(run, t(minute + 1), h, ModelFamily.TEXT, "bert-tiny", BackendId.WASM, chromiumProv(h, false),
                samples(4.0, 0.05, 30, minute + 2)));
        // a GPU's adapter: a software adapter's slow-down is never flagged (SoftwareAdapterFiguresTest)
        s.write(passed(run, t(minute + 2), h, ModelFamily.TEXT, "bert-tiny", BackendId.WEBGPU, chromiumProv(h, false),
                samples(60.0 * webgpuFactor, 0.03, 30, minute + 3)));
        s.write(passed(run, t(minute + 3), h, ModelFamily.VISION, "convnet", BackendId.CPU, nativeProv(h), samples(1.0, 0.05, 30, minute + 4)));
        s.write(fellBack(run, t(minute + 4), h, ModelFamily.VISION, "convnet", BackendId.WEBNN_GPU, BackendId.WASM, chromiumProv(h, false),
                samples(1.5, 0.05, 30, minute + 5)));
        s.write(wrong(run, t(minute + 5), ModelFamily.VISION, "convnet", BackendId.WEBGPU, chromiumProv(h, true), samples(70, 0.05, 30, minute + 6)));
        s.write(notRun(run, t(minute + 6), ModelFamily.AUDIO, "whisper-tiny", BackendId.CUDA, Status.UNAVAILABLE,
                "unavailable: 0 CUDA devices; ORT providers [CPUExecutionProvider] <&\"'>", nativeProv(h)));
        s.write(notRun(run, t(minute + 7), ModelFamily.AUDIO, "whisper-tiny", BackendId.WEBNN_CPU, Status.UNSUPPORTED,
                "op STFT not supported by WebNN", chromiumProv(h, false)));
        s.write(notRun(run, t(minute + 8), ModelFamily.AUDIO, "whisper-tiny", BackendId.WASM, Status.FAILED,
                "session.run threw RangeError: offset out of bounds", chromiumProv(h, false)));
    }
}
