package dev.accelbridge.browser.bridge;

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

        long t0 = System.nanoTime();
        Process cli = new ProcessBuilder("./accelbridge", "run", "--model", folders.toString(), "--backends", backend.id(),
                "--browser", "chromium", "--warmups", "0", "-n", "1", "--db", work.resolve("store.duckdb").toString(), "--out", work.resolve("out").toString())
                .redirectErrorStream(true).redirectOutput(work.resolve("cli.log").toFile()).start();
        int rc = cli.waitFor();
        double cliS = (System.nanoTime() - t0) / 1e9;
        List<String> log = Files.readAllLines(work.resolve("cli.log"));
        java.util.Map<String, Long> verdicts = log.stream().filter(l -> l.matches("^\\[\\d+/\\d+\\] .*: [A-Z_]+$"))
                .map(l -> l.substring(l.lastIndexOf(": ") + 2)).collect(java.util.stream.Collectors.groupingBy(v -> v,
                        java.util.TreeMap::new, java.util.stream.Collectors.counting()));
        System.out.printf("cli  : exit %d in %.1f s, verdicts %s; where its time went:%n", rc, cliS, verdicts);
        log.subList(Math.max(0, log.size() - 16), log.size()).forEach(l -> System.out.println("       " + l));

        try (BridgeServer server = BridgeServer.start(BridgeOptions.defaults())) {
            String list = OpsBench.bareList(server, written, work);
            long b0 = System.nanoTime();
            OpsBench.Side bare = OpsBench.bare(server, backend, list);
            double bareWall = (System.nanoTime() - b0) / 1e9;
            System.out.printf("bare : %d cases, the loop %.1f s, %.1f s with its browser's launch and page; %d failed%n", written.size(),
                    bare.seconds(), bareWall, bare.failed().size());
            System.out.printf("conformance run / bare page loop (both whole): %.2f (goal < 1.2); against the bare loop alone: %.2f%n",
                    cliS / bareWall, cliS / bare.seconds());
        }
        System.exit(0);
    }
}
