package dev.accelbridge.bench;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.history.RegressionDetector;
import dev.accelbridge.reports.render.Matrix;
import dev.accelbridge.reports.render.MatrixBuilder;
import dev.accelbridge.reports.render.ReportWriter;
import dev.accelbridge.reports.store.MatrixStore;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import static dev.accelbridge.reports.Fixtures.*;

/**
 * Rendering benchmark (bench/report/run.sh): fills a temporary store with N constructed results — a RENDERING
 * BENCHMARK INPUT, not measurements of any backend — then times building the matrix and writing the four reports.
 */
public final class ReportRenderBench {
    public static void main(String[] args) throws Exception {
        int total = args.length > 0 ? Integer.parseInt(args[0]) : 10_000;
        int runs = 10;
        int perRun = total / runs;
        Path dir = Files.createTempDirectory("accelbridge-report-bench");
        Path db = dir.resolve("bench.duckdb");
        List<HostInfo> hosts = List.of(host("bench-a"), host("bench-b"));
        BackendId[] backends = BackendId.values();
        long t0 = System.nanoTime();
        try (MatrixStore s = MatrixStore.open(db)) {
            for (int run = 0; run < runs; run++) {
                String id = s.beginRun(hosts.get(0), Map.of("accelbridge", "bench"), "{\"bench\":\"constructed input\"}");
                List<RunResult> batch = new ArrayList<>(perRun);
                for (int i = 0; i < perRun; i++) {
                    HostInfo h = hosts.get(i % 2);
                    BackendId b = backends[(i / 2) % backends.length];
                    int model = i / (2 * backends.length);
                    ModelFamily suite = ModelFamily.values()[model % 3];
                    String name = "model-" + model;
                    var prov = b.isBrowser() ? chromiumProv(h, b == BackendId.WEBGPU) : nativeProv(h);
                    var at = t(run * 60 + i % 60);
                    double base = b == BackendId.CPU ? 2 : b == BackendId.WASM ? 4 : 50;
                    if (b == BackendId.CUDA || b == BackendId.ROCM || b == BackendId.COREML || b == BackendId.OPENVINO) {
                        batch.add(notRun(id, at, suite, name, b, Status.UNAVAILABLE, "unavailable: not on this host", prov));
                    } else if (b.isWebnn()) {
                        batch.add(fellBack(id, at, h, suite, name, b, BackendId.WASM, prov, samples(4, 0.05, 30, run * 7919L + i)));
                    } else {
                        double drift = (run == runs - 1 && model % 10 == 0) ? 1.3 : 1.0;
                        batch.add(passed(id, at, h, suite, name, b, prov, samples(base * drift, 0.05, 30, run * 7919L + i)));
                    }
                }
                s.writeAll(batch);
                s.finishRun(id);
            }
        }
        double fillMs = (System.nanoTime() - t0) / 1e6;
        System.out.printf(Locale.ROOT, "store: %d constructed results (rendering benchmark input, not measurements), %d runs, "
                + "%d samples each; filled in %.0f ms; %s%n", perRun * runs, runs, 30, fillMs, db);
        for (int rep = 1; rep <= 3; rep++) {
            Path out = dir.resolve("out-" + rep);
            long a = System.nanoTime();
            try (MatrixStore s = MatrixStore.open(db)) {
                long b = System.nanoTime();
                Matrix m = MatrixBuilder.build(s, Optional.empty(), RegressionDetector.defaults());
                long c = System.nanoTime();
                ReportWriter.write(m, out);
                long d = System.nanoTime();
                System.out.printf(Locale.ROOT, "render #%d: total %.0f ms (open+check %.0f, load+score+history+regressions %.0f, "
                                + "write 4 files %.0f); %d cells, %d regressions; report.html %d KiB%n", rep, (d - a) / 1e6,
                        (b - a) / 1e6, (c - b) / 1e6, (d - c) / 1e6, m.cells().size(), m.regressions().size(),
                        Files.size(out.resolve("report.html")) / 1024);
            }
        }
    }
}
