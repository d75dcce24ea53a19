package dev.accelbridge.tools.cli;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** Bad input: exit code 2 and one line naming the problem and the fix; no stack trace without --verbose. */
class CliBadInputTest {
    @TempDir
    Path tmp;

    private CliRunner.Result run(String... args) {
        return CliRunner.run(args);
    }

    private void assertOneLineError(CliRunner.Result r, String... fragments) {
        assertThat(r.exitCode()).isEqualTo(Main.ERROR);
        String firstLine = r.err().lines().findFirst().orElse("");
        assertThat(firstLine).startsWith("error: ");
        for (String f : fragments) {
            assertThat(firstLine).contains(f);
        }
        assertThat(r.err()).doesNotContain("\tat ");
    }

    /** Found when read: an unknown command with --help printed the top-level help and exited 0; its hint named the tool twice. */
    @Test
    void anUnknownCommandIsRefusedEvenWithHelpAndItsHintNamesTheToolOnce() {
        for (String[] args : new String[][] {{"NOSUCH", "--help"}, {"NOSUCH"}, {"run", "NOSUCH", "--help"}}) {
            CliRunner.Result r = run(args);
            assertOneLineError(r, "'NOSUCH'");
            assertThat(r.err()).doesNotContain("accelbridge accelbridge").contains(args[0].equals("run")
                    ? "see 'accelbridge run --help'" : "see 'accelbridge --help'");
            assertThat(r.out()).as("no help instead of the error").doesNotContain("Usage:");
        }
    }

    @Test
    void unknownBackendIsRefusedNamingTheValidOnes() {
        CliRunner.Result r = run("run", "--db", tmp.resolve("m.duckdb").toString(), "--backends", "cpu,tpu", "--no-report");
        assertOneLineError(r, "Unknown backend 'tpu'", "webgpu", "cpu");
        assertThat(tmp.resolve("m.duckdb")).doesNotExist();
    }

    /**
     * An option JSEP drops unread (the native WebGPU EP's validation) on a run with JSEP lanes alone, and a WebGPU option
     * on a run without WebGPU, would only repeat the same cases under another name: refused before anything runs.
     */
    @Test
    void aSessionOptionThatNoCaseOfTheRunWouldTakeIsRefused() {
        CliRunner.Result r = run("run", "--db", tmp.resolve("m.duckdb").toString(), "--suites", "vision", "--backends", "webgpu",
                "--engines", "jsep", "--runtime-option", "validation=full", "--no-report");
        assertOneLineError(r, "--runtime-option validation=full applies to no case of this run", "webgpu-ep or webgpu-ep-jspi engine",
                "--engines webgpu-ep");
        assertOneLineError(run("run", "--db", tmp.resolve("m.duckdb").toString(), "--suites", "vision", "--backends", "wasm,cpu",
                "--runtime-option", "outputs=gpu-buffer", "--no-report"), "outputs=gpu-buffer applies to no case", "[webgpu]");
        assertThat(tmp.resolve("m.duckdb")).doesNotExist();
    }

    /**
     * Found when tried: every batch size within 1..4,096, all of them at once, ran out of heap in 13 s building inputs,
     * and with three precisions 12,288 cases started without a word. Their product is bounded before the store is touched.
     */
    @Test
    void batchSizesPrecisionsAndModelsWhoseProductExceedsTheRunsBoundAreRefusedBeforeTheStoreIsTouched() {
        String all = java.util.stream.IntStream.rangeClosed(1, 4096).mapToObj(Integer::toString)
                .collect(java.util.stream.Collectors.joining(","));
        assertOneLineError(run("run", "--native", "--suites", "text", "--db", tmp.resolve("m.duckdb").toString(), "--batch-sizes", all,
                "--precision", "fp32,fp16,int8", "--no-report"), "cases", "--batch-sizes");
        assertThat(tmp.resolve("m.duckdb")).doesNotExist();
    }

    @Test
    void anUnknownPrecisionOrANonPositiveBatchSizeIsRefused() {
        assertOneLineError(run("run", "--native", "--db", tmp.resolve("m.duckdb").toString(), "--precision", "fp32,fp64", "--no-report"),
                "--precision", "fp64");
        assertOneLineError(run("run", "--native", "--db", tmp.resolve("m.duckdb").toString(), "--batch-sizes", "1,0", "--no-report"),
                "--batch-sizes");
        assertOneLineError(run("recommend", "--dtypes", "--within", "1.5", "--db", tmp.resolve("none.duckdb").toString()),
                "--within 1.5", "(0, 1]");
    }

    @Test
    void badParallelRetriesAdvertiseAndTlsOptionsAreRefusedBeforeAnythingRuns() {
        String db = tmp.resolve("m.duckdb").toString();
        assertOneLineError(run("run", "--native", "--db", db, "--parallel", "0", "--no-report"), "--parallel");
        assertOneLineError(run("run", "--native", "--db", db, "--retries", "-1", "--no-report"), "--retries");
        assertOneLineError(run("run", "--native", "--db", db, "--retries", "11", "--no-report"), "--retries must be 0..10");
        assertOneLineError(run("run", "--native", "--db", db, "--advertise", "ftp://10.0.0.5", "--no-report"),
                "--advertise", "not an http URL");
        assertThat(tmp.resolve("m.duckdb")).doesNotExist();
        Path missing = tmp.resolve("no.p12");
        assertOneLineError(run("serve", "--db", db, "--tls-keystore", missing.toString()), missing.toString(), "--tls-keystore");
        assertThat(tmp.resolve("m.duckdb")).doesNotExist();
    }

    @Test
    void aPlanFileThatIsMissingNotJsonOrNotARunnablePlanIsRefusedBeforeTheStoreIsTouched() throws Exception {
        String db = tmp.resolve("m.duckdb").toString();
        Path missing = tmp.resolve("none.plan.json");
        assertOneLineError(run("run", "--db", db, "--plan", missing.toString(), "--no-report"), "Plan file", missing.toString());
        Path notJson = java.nio.file.Files.writeString(tmp.resolve("bad.plan.json"), "{suites: text");
        assertOneLineError(run("run", "--db", db, "--plan", notJson.toString(), "--no-report"), "is not JSON");
        var plan = dev.accelbridge.run.PlanJson.write(dev.accelbridge.run.RunPlan.builder()
                .targets(t -> t.setBackends(java.util.List.of(dev.accelbridge.core.BackendId.CPU))).build());
        ((com.fasterxml.jackson.databind.node.ObjectNode) plan.get("sampling")).put("iterations", 0);
        Path zero = java.nio.file.Files.writeString(tmp.resolve("zero.plan.json"), plan.toString());
        assertOneLineError(run("run", "--db", db, "--plan", zero.toString(), "--no-report"), "--iterations must be");
        assertThat(tmp.resolve("m.duckdb")).doesNotExist();
    }

    @Test
    void aBundleWithABadPartSizeIntoAFullFolderOrOfAMissingModelIsRefusedBeforeAnythingIsWritten() throws Exception {
        assertOneLineError(run("bundle", "--out", tmp.resolve("b").toString(), "--part-size", "0"), "at least one byte", "--part-size 100M");
        assertOneLineError(run("bundle", "--out", tmp.resolve("b").toString(), "--part-size", "1T"), "'1T' is not a size");
        Files.createDirectories(tmp.resolve("full"));
        Files.writeString(tmp.resolve("full/x"), "x");
        assertOneLineError(run("bundle", "--out", tmp.resolve("full").toString()), "is not empty", "a new or empty folder");
        assertOneLineError(run("bundle", "--out", tmp.resolve("b").toString(), "--model", tmp.resolve("nope").toString()),
                "is not a file or folder here");
        // found when tried: --part-size 1 wrote 844,866 one-byte parts; a FIFO hung the bundle, /dev/zero copied without end
        assertOneLineError(run("bundle", "--out", tmp.resolve("b").toString(), "--part-size", "1"), "is below 1M", "at least 1M");
        Path fifo = tmp.resolve("model.fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        assertOneLineError(run("bundle", "--out", tmp.resolve("b").toString(), "--model", fifo.toString()),
                "is neither a regular file nor a folder");
        assertOneLineError(run("bundle", "--out", tmp.resolve("b").toString(), "--model", "/dev/zero"),
                "is neither a regular file nor a folder");
        assertThat(tmp.resolve("b")).doesNotExist();
    }

    /** SIGTERM (how timeout, CI and systemd stop a command) while a bundle is staged leaves no staging folder behind. */
    @Test
    void aBundleStoppedBySigtermLeavesNoStagingFolder() throws Exception {
        Path own = Files.createDirectories(tmp.resolve("own-tmp"));
        ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Djava.io.tmpdir=" + own, "-cp", System.getProperty("java.class.path"), Main.class.getName(), "bundle", "--out",
                tmp.resolve("b").toString()).redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD);
        Process p = pb.start();
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(60);
        while (staging(own).isEmpty() && p.isAlive() && System.nanoTime() < deadline) {
            Thread.sleep(50);
        }
        assertThat(staging(own)).as("the bundle began staging").isNotEmpty();
        Thread.sleep(500); // into jlink
        p.destroy(); // SIGTERM
        assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
        assertThat(staging(own)).as("staging left behind after SIGTERM").isEmpty();
    }

    private static List<Path> staging(Path dir) throws java.io.IOException {
        try (var s = Files.list(dir)) {
            return s.filter(f -> f.getFileName().toString().startsWith("accelbridge-bundle-")).toList();
        }
    }

    /** The driver a run takes when --driver names none comes from ACCELBRIDGE_DRIVER (the offline bundle sets it): checked. */
    @Test
    void aDriverNamedByTheEnvironmentThatIsNoneIsRefused() throws Exception {
        // found when tried: manual and grid were taken, though the message lists three, and every case failed naming a flag
        for (String value : List.of("geckodriver", "manual", "grid")) {
            ProcessBuilder pb = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                    System.getProperty("java.class.path"), Main.class.getName(), "run", "--native", "--suites", "vision",
                    "--no-report", "--db", tmp.resolve("m.duckdb").toString()).redirectOutput(ProcessBuilder.Redirect.DISCARD);
            pb.environment().put("ACCELBRIDGE_DRIVER", value);
            Process p = pb.start();
            String err = new String(p.getErrorStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(err).isEqualTo(Main.ERROR);
            assertThat(err.lines().findFirst().orElse("")).isEqualTo("error: ACCELBRIDGE_DRIVER='" + value + "' is not a driver — set it to "
                    + "playwright, selenium or process, or unset it");
            assertThat(tmp.resolve("m.duckdb")).doesNotExist();
        }
    }

    @Test
    void fitsFromNamesItsOwnOption() {
        // found when tried: a bad --from was reported as --model
        CliRunner.Result r = run("fit", "--model", "bert-mini", "--from", "no-such-model", "--db", tmp.resolve("m.duckdb").toString());
        assertOneLineError(r, "--from no-such-model is neither an existing path nor a suite model");
    }

    @Test
    void unknownSuiteIsRefused() {
        CliRunner.Result r = run("run", "--native", "--db", tmp.resolve("m.duckdb").toString(), "--suites", "speech", "--no-report");
        assertOneLineError(r, "Unknown suite 'speech'", "text, vision, audio");
    }

    @Test
    void missingModelFolderIsRefused() {
        Path missing = tmp.resolve("no-such-model");
        CliRunner.Result r = run("run", "--native", "--db", tmp.resolve("m.duckdb").toString(), "--model", missing.toString(), "--no-report");
        assertOneLineError(r, missing.toString());
    }

    /**
     * A model's own problem is not bad input: it becomes that model's FAILED rows naming the file, the run finishes,
     * and {@code --fail-on failed} turns it into exit 1.
     */
    @Test
    void aTruncatedOnnxIsThatModelsFailedRowNamingTheFile() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("broken"));
        Files.write(dir.resolve("model.onnx"), new byte[] {0x08, 0x08, 0x12, 0x7f, 0x01, 0x02});
        CliRunner.Result r = run("run", "--native", "--db", tmp.resolve("m.duckdb").toString(), "--model", dir.toString(), "--no-report",
                "--json");
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        var arr = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.out());
        assertThat(arr).hasSize(1);
        assertThat(arr.get(0).get("status").asText()).isEqualTo("FAILED");
        assertThat(arr.get(0).get("reason").asText()).contains("model.onnx");
        assertThat(run("run", "--native", "--db", tmp.resolve("m2.duckdb").toString(), "--model", dir.toString(), "--no-report",
                "--fail-on", "failed").exitCode()).isEqualTo(Main.POLICY_FAILED);
    }

    @Test
    void aDataSetOfTheWrongShapeIsThatModelsFailedRowNamingTheInput() throws Exception {
        // A real suite model in the ONNX test-data layout, with a data set of the wrong shape.
        var catalog = dev.accelbridge.suites.SuiteCatalog.create(dev.accelbridge.suites.SuiteOptions.defaults(tmp.resolve("cache")));
        var vision = catalog.cases(dev.accelbridge.core.ModelFamily.VISION).get(0);
        Path dir = Files.createDirectories(tmp.resolve("wrong-shape"));
        Files.copy(vision.model().path(), dir.resolve("model.onnx"));
        Path ds = Files.createDirectories(dir.resolve("test_data_set_0"));
        var input = vision.model().inputs().get(0);
        var wrong = dev.accelbridge.core.NamedTensor.ofFloats(input.name(), new long[] {1, 3, 8, 8}, new float[3 * 8 * 8]);
        Files.write(ds.resolve("input_0.pb"), dev.accelbridge.suites.onnx.OnnxTensors.toProto(wrong).toByteArray());
        CliRunner.Result r = run("run", "--native", "--db", tmp.resolve("m.duckdb").toString(), "--model", dir.toString(), "--no-report",
                "--json");
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        var row = new com.fasterxml.jackson.databind.ObjectMapper().readTree(r.out()).get(0);
        assertThat(row.get("status").asText()).isEqualTo("FAILED");
        assertThat(row.get("reason").asText()).contains("Input '" + input.name() + "'", "[1, 3, 8, 8]", "expects");
    }

    @Test
    void verboseAddsTheStackTrace() {
        Path missing = tmp.resolve("no-such-model");
        CliRunner.Result r = run("run", "--verbose", "--native", "--db", tmp.resolve("m.duckdb").toString(), "--model",
                missing.toString(), "--no-report");
        assertThat(r.exitCode()).isEqualTo(Main.ERROR);
        assertThat(r.err()).contains(missing.toString()).contains("\tat ");
    }

    /** Found when tried: --timeout 0 and -1 ran every case into an immediate timeout with exit 0. */
    @Test
    void aTimeoutThatIsNotPositiveIsRefused() {
        for (String t : new String[]{"0", "-1", "soon"}) {
            CliRunner.Result r = run("run", "--native", "--db", tmp.resolve("m.duckdb").toString(), "--timeout", t, "--no-report");
            assertOneLineError(r, "--timeout", t);
            assertThat(tmp.resolve("m.duckdb")).doesNotExist();
        }
        assertOneLineError(run("run", "--native", "--db", tmp.resolve("m.duckdb").toString(), "--iterations", "0"), "--iterations",
                "at least 1");
        assertOneLineError(run("run", "--native", "--db", tmp.resolve("m.duckdb").toString(), "--warmups", "-2"), "--warmups",
                "not be negative");
        assertOneLineError(run("run", "--native", "--db", tmp.resolve("m.duckdb").toString(), "--threads", "0"), "--threads");
        for (String d : new String[]{"-1", "soon", "601"}) {
            assertOneLineError(run("run", "--native", "--db", tmp.resolve("m.duckdb").toString(), "--min-duration", d), "--min-duration", d);
        }
        assertThat(tmp.resolve("m.duckdb")).doesNotExist();
    }

    /** Found when tried: --backends "" ran nothing with exit 0. */
    @Test
    void anEmptyBackendListIsRefused() {
        CliRunner.Result r = run("run", "--db", tmp.resolve("m.duckdb").toString(), "--backends", "", "--no-report");
        assertOneLineError(r, "--backends", "empty");
        assertThat(tmp.resolve("m.duckdb")).doesNotExist();
    }

    /** Found when tried: --family bogus said "Unknown suite". */
    @Test
    void anUnknownFamilyIsCalledAFamily() {
        CliRunner.Result r = run("run", "--native", "--db", tmp.resolve("m.duckdb").toString(), "--family", "bogus",
                "--model", tmp.toString(), "--no-report");
        assertOneLineError(r, "--family", "Unknown family 'bogus'", "text, vision, audio, multimodal, text-generation, ops, other");
        assertOneLineError(run("run", "--native", "--size", "huge"), "--size", "small, large or real");
        assertOneLineError(run("run", "--browser", "netscape"), "--browser", "Unknown browser 'netscape'");
    }

    @Test
    void unknownChainHopIsRefusedBeforeTheRun() {
        CliRunner.Result r = run("run", "--native", "--db", tmp.resolve("m.duckdb").toString(), "--chain", "cuda,warp,cpu", "--no-report");
        assertOneLineError(r, "warp");
        assertThat(tmp.resolve("m.duckdb")).doesNotExist();
    }

    @Test
    void corruptedStoreIsRefusedAndLeftAlone() throws Exception {
        Path db = tmp.resolve("junk.duckdb");
        byte[] junk = "this is not a database, it is a note".getBytes();
        Files.write(db, junk);
        CliRunner.Result r = run("run", "--native", "--suites", "vision", "--db", db.toString(), "--no-report");
        assertOneLineError(r, db.toString());
        assertThat(Files.readAllBytes(db)).isEqualTo(junk);
    }

    @Test
    void drillDownFlagsAndBisectRefuseBadInputBeforeTouchingTheStore() {
        String db = tmp.resolve("m.duckdb").toString();
        assertOneLineError(run("run", "--native", "--db", db, "--recreate", "0", "--no-report"), "--recreate");
        assertOneLineError(run("bisect", "--db", db, "--model", "no-such-model", "--backend", "wasm"),
                "no-such-model", "neither an existing path nor a suite model");
        assertOneLineError(run("bisect", "--db", db, "--model", "convnet-small", "--backend", "cpu"), "cpu is the reference");
        assertOneLineError(run("bisect", "--db", db, "--model", "convnet-small", "--backend", "wasm", "--tolerance", "-1"),
                "--tolerance must be positive");
        assertThat(tmp.resolve("m.duckdb")).doesNotExist();
    }

    @Test
    void aDashboardOffLoopbackWithoutATokenOrOnABadPortIsRefusedBeforeTheStoreIsTouched() {
        Path db = tmp.resolve("dash.duckdb");
        assertOneLineError(run("dashboard", "--db", db.toString(), "--host", "0.0.0.0"), "without a token");
        assertOneLineError(run("dashboard", "--db", db.toString(), "--port", "70000"), "Port 70000 is out of range");
        assertThat(db).doesNotExist();
    }

    @Test
    void anEmptyOrMissingTokenFileOrAWeakTokenOffLoopbackIsRefused() throws Exception {
        Path db = tmp.resolve("t.duckdb");
        Path empty = Files.writeString(tmp.resolve("empty.token"), "\n");
        assertOneLineError(run("dashboard", "--db", db.toString(), "--token-file", empty.toString()), "--token-file", "empty first line");
        assertOneLineError(run("dashboard", "--db", db.toString(), "--token-file", tmp.resolve("none").toString()), "--token-file", "does not exist");
        Path weak = Files.writeString(tmp.resolve("weak.token"), "secret\n");
        assertOneLineError(run("serve", "--db", db.toString(), "--host", "0.0.0.0", "--token-file", weak.toString()), "too weak", "openssl rand");
        assertThat(db).doesNotExist();
    }

    /**
     * Found when tried: a FIFO nobody writes to as --token-file or --tls-keystore-password-file hung serve with no output,
     * and /dev/zero was read whole for one line until the heap ran out (11-12 s). Neither is opened now; each is one line.
     */
    @Test
    void aFifoADeviceOrAFolderNamedForASecretIsRefusedWithoutOpeningIt() throws Exception {
        Path db = tmp.resolve("t.duckdb");
        Path fifo = tmp.resolve("fifo");
        assertThat(new ProcessBuilder("mkfifo", fifo.toString()).start().waitFor()).isZero();
        Path ks = Files.write(tmp.resolve("ks.p12"), new byte[] {1, 2, 3});
        org.junit.jupiter.api.Assertions.assertTimeoutPreemptively(java.time.Duration.ofSeconds(60), () -> {
            for (String bad : List.of(fifo.toString(), "/dev/zero")) {
                assertOneLineError(run("serve", "--db", db.toString(), "--token-file", bad), "--token-file", "not a regular file");
                assertOneLineError(run("serve", "--db", db.toString(), "--tls-keystore", ks.toString(),
                        "--tls-keystore-password-file", bad), "--tls-keystore-password-file", "not a regular file");
            }
            assertOneLineError(run("serve", "--db", db.toString(), "--token-file", tmp.toString()), "--token-file", "is a folder");
            Path big = Files.write(tmp.resolve("big.token"), new byte[5000]);
            assertOneLineError(run("serve", "--db", db.toString(), "--token-file", big.toString()), "5,000 bytes", "4,096");
            Path empty = Files.createFile(tmp.resolve("empty.p12"));
            assertOneLineError(run("serve", "--db", db.toString(), "--tls-keystore", empty.toString()), "--tls-keystore", "is empty");
            assertOneLineError(run("serve", "--db", db.toString(), "--tls-keystore", fifo.toString()), "--tls-keystore",
                    "not a regular file");
        });
        assertThat(db).doesNotExist();
    }
}
