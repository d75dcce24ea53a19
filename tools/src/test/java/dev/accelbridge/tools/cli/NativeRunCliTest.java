package dev.accelbridge.tools.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.store.MatrixStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.HashMap;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code run --native} and {@code detect} through the real CLI: real ONNX Runtime via DJL, a real DuckDB file. */
class NativeRunCliTest {
    @TempDir
    Path tmp;

    @Test
    void nativeRunOfTheThreeSuitesPrintsJsonAndStoresEveryCase() throws Exception {
        Path db = tmp.resolve("m.duckdb");
        // counts given with durations: both, as asked (a count given alone is exact: below)
        CliRunner.Result r = CliRunner.run("run", "--native", "--suites", "text,vision,audio", "--db", db.toString(), "--json", "--warmups", "1",
                "--iterations", "5", "--min-duration", "0.5", "--warmup-duration", "0.5", "--out", tmp.resolve("out").toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        JsonNode arr = new ObjectMapper().readTree(r.out());
        assertThat(arr.isArray()).isTrue();
        assertThat(arr).hasSize(4);
        List<String> suites = new ArrayList<>();
        for (JsonNode n : arr) {
            suites.add(n.get("suite").asText());
            if (n.get("scenario").asText().startsWith("generate")) { // speech-to-text: a generation, judged by its tokens
                assertThat(n.get("status").asText()).isEqualTo("PASSED");
                assertThat(n.get("decoding").get("tokensVerified").asBoolean()).as("the reference repeats its own first generation: nothing independent verifies it").isFalse();
                assertThat(n.get("decoding").get("tokensChecked").asText()).isEqualTo("own-first");
                continue;
            }
            assertThat(n.get("requested").asText()).isEqualTo("cpu");
            assertThat(n.get("actual").asText()).isEqualTo("cpu");
            assertThat(n.get("status").asText()).isEqualTo("PASSED");
            // at least --iterations, and on for 0.5 s: these sub-millisecond models get hundreds
            int samples = n.get("samples").asInt();
            assertThat(n.get("iterations").asInt()).isEqualTo(samples);
            assertThat(samples).isGreaterThan(36).isLessThanOrEqualTo(1000);
            assertThat(n.get("loadMs").asDouble()).isPositive();
            assertThat(n.get("firstMs").asDouble()).isPositive();
            double p50 = n.get("p50Ms").asDouble();
            assertThat(n.get("p50CiMs").get(0).asDouble()).isLessThanOrEqualTo(p50);
            assertThat(n.get("p50CiMs").get(1).asDouble()).isGreaterThanOrEqualTo(p50);
            assertThat(n.get("p90Ms").asDouble()).isGreaterThanOrEqualTo(p50);
            if (samples < 368) {
                assertThat(n.get("p99Ms").isNull()).as("p99 from %d samples", samples).isTrue();
                assertThat(n.get("samplesNeeded").get("p99").asInt()).isEqualTo(368);
            } else {
                assertThat(n.get("p99Ms").asDouble()).isGreaterThanOrEqualTo(n.get("p90Ms").asDouble());
            }
            assertThat(n.get("timerResolutionMs").asDouble()).isPositive().isLessThan(0.1);
            assertThat(n.get("latencyFloorMs").isNull()).isTrue();
            assertThat(n.get("steady").isBoolean()).isTrue();
            assertThat(n.get("warmupMs").asDouble()).isPositive();
            assertThat(n.get("host").asText()).isNotBlank();
            assertThat(n.get("model").asText()).isNotBlank();
            assertThat(n.has("score")).isTrue();
            assertThat(n.get("fallbackPath")).hasSize(1);
        }
        assertThat(suites).containsExactlyInAnyOrder("text", "vision", "audio", "audio");
        assertThat(r.err()).contains("where the").contains("timed compute").contains("wall / compute");
        assertThat(r.err()).contains("PASSED");
        // Found when tried: run --json, matrix.json and the export wrote three forms of one case that disagreed
        // (browser with/without version, grade HIGH/High, evidence/reason). Now they derive from one form.
        JsonNode matrix = new ObjectMapper().readTree(tmp.resolve("out/matrix.json").toFile());
        Path export = tmp.resolve("export.json");
        assertThat(CliRunner.run("export", export.toString(), "--db", db.toString()).exitCode()).isEqualTo(Main.OK);
        JsonNode exported = new ObjectMapper().readTree(export.toFile()).get("results");
        for (JsonNode n : arr) {
            JsonNode cell = find(matrix.get("cells"), n.get("caseKey").asText());
            JsonNode ex = find(exported, n.get("caseKey").asText());
            for (String field : List.of("runId", "caseKey", "suite", "model", "modelSha256", "inputSet", "inputShapes", "precision",
                    "batchSize", "requested", "lane", "actual", "status", "reason", "evidence", "host", "browser", "driver",
                    "adapter", "softwareAdapter", "acceleration", "threads", "p50Ms", "p90Ms", "iterations", "maxAbsErr",
                    "fallbackPath", "diagnostics", "provenance")) {
                assertThat(cell.get(field)).as("matrix.json " + field).isEqualTo(n.get(field));
                assertThat(ex.get(field)).as("export " + field).isEqualTo(n.get(field));
            }
            for (String derived : List.of("score", "grade", "scoreNote", "speedVsNativeCpu")) {
                assertThat(cell.get(derived)).as("matrix.json " + derived).isEqualTo(n.get(derived));
            }
            assertThat(n.get("grade").asText()).isEqualTo("HIGH");
        }
        assertThat(tmp.resolve("out/report.html")).exists();
        assertThat(tmp.resolve("out/junit.xml")).exists();
        try (MatrixStore store = MatrixStore.open(db)) {
            String run = store.latestRun().orElseThrow();
            List<RunResult> stored = store.results(run);
            assertThat(stored).hasSize(4);
            assertThat(stored.stream().filter(x -> x.timings().orElseThrow().figures() instanceof dev.accelbridge.core.ScenarioFigures.SinglePass).toList()).hasSize(3).allSatisfy(x -> {
                assertThat(x.status()).isEqualTo(Status.PASSED);
                assertThat(x.timings().orElseThrow().samplesMs()).hasSizeGreaterThan(36);
                assertThat(x.timings().orElseThrow().quality().p50Ci()).isNotNull();
            });
            // the run's own account: printed at its end and kept in the ledger
            JsonNode account = new ObjectMapper().readTree(store.account(run).orElseThrow());
            assertThat(account.get("parts").get("timed").asDouble()).isPositive();
            assertThat(account.get("parts").get("sessions").asDouble()).isPositive();
            assertThat(account.get("wallMs").asDouble()).isGreaterThan(account.get("computeMs").asDouble());
        }
    }

    @Test
    void countsGivenAloneAreTheCountsThatRun() throws Exception {
        // found when tried: --warmups 0 -n 1 ran 222 to 1000 timed runs a case after 189 to 1000 warm-ups
        CliRunner.Result r = CliRunner.run("run", "--native", "--db", tmp.resolve("m.duckdb").toString(), "--json", "--warmups", "0",
                "-n", "1", "--no-report", "--out", tmp.resolve("out").toString());
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        assertThat(r.err()).contains("each case runs exactly 0 warm-ups; exactly 1 timed run");
        JsonNode arr = new ObjectMapper().readTree(r.out());
        // the single passes of text, vision, audio and the multimodal pair (its towers alone run when the suite is named),
        // speech-to-text and the decoder's generation
        assertThat(arr).hasSize(6).allSatisfy(n -> {
            assertThat(n.get("status").asText()).isEqualTo("PASSED");
            assertThat(n.get("warmups").asInt()).isZero();
            assertThat(n.get("samples").asInt()).isEqualTo(1);
        });
    }

    @Test
    void anAbsentNativeBackendIsUnavailableWithEvidenceOrFallsBackAlongItsChain() throws Exception {
        Path db = tmp.resolve("m.duckdb");
        CliRunner.Result strict = CliRunner.run("run", "--native", "--backends", "cuda", "--chain", "cuda", "--suites", "vision",
                "--db", db.toString(), "--json", "--no-report", "--iterations", "2", "--min-duration", "0", "--warmup-duration", "0", "--warmups", "0");
        assertThat(strict.exitCode()).as(strict.err()).isEqualTo(Main.OK);
        JsonNode cuda = new ObjectMapper().readTree(strict.out()).get(0);
        assertThat(cuda.get("status").asText()).isEqualTo("UNAVAILABLE");
        assertThat(cuda.get("actual").isNull()).isTrue();
        assertThat(cuda.get("p50Ms").isNull()).isTrue();
        assertThat(cuda.get("evidence").asText()).contains("CUDA").contains("CPUExecutionProvider");

        CliRunner.Result chained = CliRunner.run("run", "--native", "--backends", "cuda", "--suites", "vision",
                "--db", db.toString(), "--json", "--no-report", "--iterations", "2", "--min-duration", "0", "--warmup-duration", "0", "--warmups", "0");
        assertThat(chained.exitCode()).as(chained.err()).isEqualTo(Main.OK);
        JsonNode fb = new ObjectMapper().readTree(chained.out()).get(0);
        assertThat(fb.get("status").asText()).isEqualTo("FELL_BACK");
        assertThat(fb.get("requested").asText()).isEqualTo("cuda");
        assertThat(fb.get("actual").asText()).isEqualTo("cpu");
        JsonNode path = fb.get("fallbackPath");
        assertThat(path).hasSize(3);
        assertThat(path.get(0).get("backend").asText()).isEqualTo("cuda");
        assertThat(path.get(0).get("reason").asText()).contains("unavailable");
        assertThat(path.get(1).get("backend").asText()).isEqualTo("openvino");
        assertThat(path.get(2).get("taken").asBoolean()).isTrue();
        assertThat(fb.get("p50Ms").asDouble()).isPositive();
    }

    @Test
    void fallbacksLandingOnWorkTheirLaneMeasuresAreJudgedOnThatOneMeasurementUnlessAskedToRemeasure() throws Exception {
        Path db = tmp.resolve("m.duckdb");
        String[] base = {"run", "--native", "--backends", "cuda,openvino,cpu", "--suites", "vision", "--db", db.toString(), "--json",
                "--no-report", "--iterations", "5", "--min-duration", "0", "--warmup-duration", "0", "--warmups", "1"};
        CliRunner.Result shared = CliRunner.run(base);
        assertThat(shared.exitCode()).as(shared.err()).isEqualTo(Main.OK);
        Map<String, JsonNode> byRequested = new HashMap<>();
        new ObjectMapper().readTree(shared.out()).forEach(n -> byRequested.put(n.get("requested").asText(), n));
        JsonNode cpu = byRequested.get("cpu");
        assertThat(cpu.get("figuresOf").isNull()).as("the cpu case measured its own figures").isTrue();
        for (String fb : List.of("cuda", "openvino")) {
            JsonNode n = byRequested.get(fb);
            assertThat(n.get("status").asText()).as(n.toString()).isEqualTo("FELL_BACK");
            assertThat(n.get("actual").asText()).isEqualTo("cpu");
            // its own verdict, hops and reasons; the cpu case's one measurement, named so
            assertThat(n.get("figuresOf").asText()).isEqualTo(cpu.get("caseKey").asText());
            assertThat(n.get("fallbackPath").get(0).get("backend").asText()).isEqualTo(fb);
            assertThat(n.get("evidence").asText()).contains("unavailable").contains("figures: this lane's cpu case's");
            for (String f : List.of("p50Ms", "meanMs", "stddevMs", "maxAbsErr")) {
                assertThat(n.get(f).asDouble()).as(f).isEqualTo(cpu.get(f).asDouble());
            }
        }
        // the store keeps it: the same cells read back name the measured one
        CliRunner.Result stored = CliRunner.run("export", "--db", db.toString(), tmp.resolve("e.json").toString());
        assertThat(stored.exitCode()).as(stored.err()).isEqualTo(Main.OK);
        JsonNode exported = new ObjectMapper().readTree(tmp.resolve("e.json").toFile());
        List<String> named = new ArrayList<>();
        exported.get("results").forEach(x -> {
            if (x.hasNonNull("figuresOf")) {
                named.add(x.get("figuresOf").asText());
            }
        });
        assertThat(named).containsOnly(cpu.get("caseKey").asText()).hasSize(2);

        CliRunner.Result again = CliRunner.run(concat(base, "--remeasure-fallbacks"));
        assertThat(again.exitCode()).as(again.err()).isEqualTo(Main.OK);
        Map<String, JsonNode> rerun = new HashMap<>();
        new ObjectMapper().readTree(again.out()).forEach(n -> rerun.put(n.get("requested").asText(), n));
        assertThat(rerun.get("cuda").get("status").asText()).isEqualTo("FELL_BACK");
        assertThat(rerun.get("cuda").get("figuresOf").isNull()).as("measured again, its own figures").isTrue();
        assertThat(rerun.get("cuda").get("meanMs").asDouble()).isNotEqualTo(rerun.get("cpu").get("meanMs").asDouble());
    }

    @Test
    void failOnDecidesTheExitCode() {
        Path db = tmp.resolve("m.duckdb");
        String[] base = {"run", "--native", "--backends", "cuda", "--chain", "cuda", "--suites", "vision", "--db", db.toString(),
                "--no-report", "--iterations", "2", "--min-duration", "0", "--warmup-duration", "0", "--warmups", "0"};
        CliRunner.Result lenient = CliRunner.run(concat(base, "--fail-on", "failed,wrong-output"));
        assertThat(lenient.exitCode()).as(lenient.err()).isEqualTo(Main.OK);
        CliRunner.Result strict = CliRunner.run(concat(base, "--fail-on", "unavailable"));
        assertThat(strict.exitCode()).isEqualTo(Main.POLICY_FAILED);
        assertThat(strict.err()).contains("--fail-on unavailable").containsIgnoringCase("unavailable");
        CliRunner.Result bad = CliRunner.run(concat(base, "--fail-on", "slow"));
        assertThat(bad.exitCode()).isEqualTo(Main.ERROR);
        assertThat(bad.err()).startsWith("error: ").contains("slow");
    }

    private static String[] concat(String[] a, String... b) {
        String[] out = java.util.Arrays.copyOf(a, a.length + b.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    @Test
    void detectJsonListsTheBackendsWithEvidence() throws Exception {
        CliRunner.Result r = CliRunner.run("detect", "--json");
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        JsonNode d = new ObjectMapper().readTree(r.out());
        JsonNode backends = d.get("backends");
        assertThat(backends).isNotEmpty();
        boolean sawCpu = false;
        boolean sawCuda = false;
        for (JsonNode b : backends) {
            assertThat(b.get("evidence").asText()).isNotBlank();
            if (b.get("id").asText().equals(BackendId.CPU.id())) {
                sawCpu = true;
                assertThat(b.get("available").asBoolean()).isTrue();
            }
            if (b.get("id").asText().equals(BackendId.CUDA.id())) {
                sawCuda = true;
                assertThat(b.get("available").asBoolean()).isFalse();
            }
        }
        assertThat(sawCpu).isTrue();
        assertThat(sawCuda).isTrue();
        assertThat(d.get("host").get("logicalCores").asInt()).isPositive();
        assertThat(d.get("browsers").toString()).contains("chromium");
        // the decision a Chromium seeking the GPU's adapter gets here, said with its evidence (never "not asked")
        JsonNode layer = d.get("headlessSurfaceLayer");
        assertThat(layer.get("state").asText()).isIn("layered", "offered", "nodevice", "unavailable");
        assertThat(layer.get("says").asText()).isNotBlank();
    }

    private static JsonNode find(JsonNode array, String caseKey) {
        for (JsonNode c : array) {
            if (c.path("caseKey").asText().equals(caseKey)) {
                return c;
            }
        }
        throw new AssertionError("no " + caseKey + " in " + array);
    }
}
