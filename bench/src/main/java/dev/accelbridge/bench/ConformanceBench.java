package dev.accelbridge.bench;

import dev.accelbridge.bridge.BridgeOptions;
import dev.accelbridge.bridge.BridgeServer;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.nativerunner.DjlOnnxRuntimeProvider;
import dev.accelbridge.suites.ModelSize;
import dev.accelbridge.suites.SuiteCatalog;
import dev.accelbridge.suites.SuiteOptions;
import dev.accelbridge.suites.onnx.OnnxTensors;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * bench/conformance/run.sh (not a test): what a user's conformance run costs end to end. The op suite is written out as
 * a folder of single-node model folders with shipped test data ({@code model.onnx}, {@code test_data_set_0/input_K.pb},
 * {@code output_K.pb} from native ONNX Runtime on the CPU: onnxruntime's node-test layout); the real CLI runs it
 * ({@code ./accelbridge run --model DIR --backends B --browser chromium --warmups 0 -n 1}, JVM start, store and reports included), and a
 * bare page loops over the same models and inputs in a browser of its own, launch included. Prints both walls and the
 * ratio (goal: under 1.2).
 */
public final class ConformanceBench {
    private ConformanceBench() {
    }

    public static void main(String[] args) throws Exception {
        BackendId backend = BackendId.parse(args.length > 0 ? args[0] : "wasm");
        Path work = Files.createTempDirectory("accelbridge-conformance-bench");
        List<ModelCase> all = SuiteCatalog.create(new SuiteOptions(work.resolve("suite"), ModelSize.SMALL, SuiteOptions.DEFAULT_SEED))
                .cases(ModelFamily.OPS);
        Path folders = Files.createDirectories(work.resolve("models"));
        List<ModelCase> written = new ArrayList<>();
        try (DjlOnnxRuntimeProvider cpu = new DjlOnnxRuntimeProvider()) {
            for (ModelCase mc : all) {
                List<NamedTensor> out;
                try {
                    out = cpu.execute(new ExecutionRequest(BackendId.CPU, mc, 0, 1, Duration.ofSeconds(60))).outputs();
                } catch (RuntimeException e) {
                    continue; // no reference: not a conformance case
                }
                Path dir = Files.createDirectories(folders.resolve(String.format("%03d-%s", written.size(),
                        mc.model().name().replaceAll("[^A-Za-z0-9._=+-]", "_"))));
                Files.copy(mc.model().path(), dir.resolve("model.onnx"));
                Path data = Files.createDirectories(dir.resolve("test_data_set_0"));
                for (int k = 0; k < mc.inputs().size(); k++) {
                    Files.write(data.resolve("input_" + k + ".pb"), OnnxTensors.toProto(mc.inputs().get(k)).toByteArray());
                }
                for (int k = 0; k < out.size(); k++) {
                    Files.write(data.resolve("output_" + k + ".pb"), OnnxTensors.toProto(out.get(k)).toByteArray());
                }
                written.add(mc);
            }
        }
        System.out.printf("bench: %d model folders with test data (of %d op-suite cases; the rest have no native reference) on %s, "
                + "host %d cores%n", written.size(), all.size(), backend, Runtime.getRuntime().availableProcessors());

        int rounds = args.length > 1 ? Integer.parseInt(args[1]) : 3;
        double[] cliWalls = new double[rounds];
        double[] bareWalls = new double[rounds];
        double[] bareLoops = new double[rounds];
        try (BridgeServer server = BridgeServer.start(BridgeOptions.defaults())) {
            String list = OpsBench.bareList(server, written, work);
            for (int round = 0; round < rounds; round++) { // alternating, so the machine's drift falls on both sides
                cliWalls[round] = cli(work, folders, backend, round);
                long b0 = System.nanoTime();
                OpsBench.Side bare = OpsBench.bare(server, backend, list);
                bareWalls[round] = (System.nanoTime() - b0) / 1e9;
                bareLoops[round] = bare.seconds();
                System.out.printf("round %d bare: %d cases, the loop %.1f s, %.1f s with its browser's launch and page; %d failed%n",
                        round + 1, written.size(), bare.seconds(), bareWalls[round], bare.failed().size());
            }
        }
        double cli = median(cliWalls);
        System.out.printf("medians of %d rounds: cli %.1f s, bare %.1f s whole (%.1f s its loop)%n", rounds, cli, median(bareWalls),
                median(bareLoops));
        System.out.printf("conformance run / bare page loop (both whole): %.2f (goal < 1.2); against the bare loop alone: %.2f%n",
                cli / median(bareWalls), cli / median(bareLoops));
        System.exit(0);
    }

    /** One run of the real CLI over the folders; prints its verdicts and where its time went; returns its wall in seconds. */
    private static double cli(Path work, Path folders, BackendId backend, int round) throws Exception {
        Path out = work.resolve("run-" + round);
        long t0 = System.nanoTime();
        Process cli = new ProcessBuilder("./accelbridge", "run", "--model", folders.toString(), "--backends", backend.id(),
                "--browser", "chromium", "--warmups", "0", "-n", "1", "--db", out.resolve("store.duckdb").toString(),
                "--out", out.toString()).redirectErrorStream(true).redirectOutput(work.resolve("cli-" + round + ".log").toFile()).start();
        int rc = cli.waitFor();
        double s = (System.nanoTime() - t0) / 1e9;
        List<String> log = Files.readAllLines(work.resolve("cli-" + round + ".log"));
        // the run's table: one row per case, its status in the row (PASSED, FAILED, WRONG_OUTPUT, UNSUPPORTED, ...)
        java.util.Map<String, Long> verdicts = new java.util.TreeMap<>();
        java.util.regex.Pattern row = java.util.regex.Pattern.compile("^other\\s+\\S+\\s+\\S+\\s+\\S+\\s+\\S+\\s+([A-Z_]{4,})\\b");
        for (String l : log) {
            java.util.regex.Matcher m = row.matcher(l);
            if (m.find()) {
                verdicts.merge(m.group(1), 1L, Long::sum);
            }
        }
        System.out.printf("round %d cli : exit %d in %.1f s, verdicts %s; %s%n", round + 1, rc, s, verdicts,
                log.stream().filter(l -> l.contains("store writes") || l.contains("transfers, checks") || l.contains("browser launches"))
                        .map(String::trim).collect(java.util.stream.Collectors.joining("; ")));
        return s;
    }

    private static double median(double[] v) {
        double[] c = v.clone();
        java.util.Arrays.sort(c);
        return c[c.length / 2];
    }
}
