package dev.accelbridge.tools.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.core.SamplingDepth;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The default run on a machine without a GPU: real headless Chromium, whose WebGPU is SwiftShader. Its WebGPU cases run
 * for their verdict (the verdict's window: no warm-up, a few timed runs, marked indicative), its wasm cases are settled as
 * always, and {@code --sampling full} settles the software adapter's too. Beside Chromium, the headless shell (a second
 * Blink build on the same SwiftShader) leaves its WebGPU out, and the run's header says so.
 */
@RequiresBrowser
class SoftwareAdapterSamplingCliTest {
    @TempDir
    Path tmp;

    private final List<String> errs = new ArrayList<>();

    private List<JsonNode> run(String browsers, String... extra) throws Exception {
        List<String> args = new ArrayList<>(List.of("run", "--backends", "webgpu,wasm", "--suites", "text",
                "--browser", browsers, "--engines", "jsep", "--json", "--db", tmp.resolve("m.duckdb").toString(),
                "--out", tmp.resolve("out").toString()));
        args.addAll(List.of(extra));
        CliRunner.Result r = CliRunner.run(args.toArray(String[]::new));
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        errs.add(r.err());
        List<JsonNode> rows = new ArrayList<>();
        new ObjectMapper().readTree(r.out()).forEach(rows::add);
        return rows;
    }

    private static JsonNode row(List<JsonNode> rows, String backend) {
        return rows.stream().filter(n -> n.get("requested").asText().equals(backend)).findFirst().orElseThrow();
    }

    @Test
    void aSoftwareAdapterRunsForItsVerdictAndFullSettlesIt() throws Exception {
        // the counts given hold for wasm; the software adapter runs its verdict's window whatever they say
        List<JsonNode> auto = run("chromium,chromium-shell", "--warmups", "2", "-n", "8", "--min-duration", "0", "--warmup-duration", "0");
        // the shell repeats Chromium's SwiftShader: its WebGPU is left out, said before the run, and its wasm runs
        assertThat(auto).extracting(n -> n.get("lane").asText() + " " + n.get("requested").asText())
                .containsExactlyInAnyOrder("chromium webgpu", "chromium wasm", "chromium-shell wasm");
        assertThat(errs.get(0)).contains("left out: WebGPU on chromium-shell+ort-web@").contains("--sampling full runs it")
                .satisfies(e -> assertThat(e.indexOf("left out:")).isLessThan(e.indexOf("run ")));
        JsonNode gpu = row(auto, "webgpu");
        assertThat(gpu.get("status").asText()).as("the verdict stands").isEqualTo("PASSED");
        assertThat(gpu.get("softwareAdapter").asBoolean()).isTrue();
        assertThat(gpu.get("verdictWindow").asBoolean()).isTrue();
        assertThat(gpu.get("warmups").asInt()).isZero();
        assertThat(gpu.get("iterations").asInt()).isBetween(1, SamplingDepth.WINDOW_RUNS);
        assertThat(gpu.get("p50Ms").asDouble()).as("a figure exists").isPositive();
        // where the nodes ran is checked (the model's shape ops go to the CPU EP), which nodes is not listed: the listing is
        // a second session under ORT's verbose log, which the verdict does not need (found when tried: 3.8 s of bert-mini's case)
        assertThat(gpu.get("placement").get("onRequested").asBoolean()).isFalse();
        assertThat(gpu.get("placement").get("offNodes")).isEmpty();
        assertThat(gpu.get("placement").get("basis").asText()).contains("which nodes was not asked for");
        JsonNode wasm = row(auto, "wasm");
        assertThat(wasm.path("verdictWindow").asBoolean(false)).as("the CPU is settled as always").isFalse();
        assertThat(wasm.get("iterations").asInt()).isEqualTo(8);
        assertThat(wasm.get("warmups").asInt()).isEqualTo(2);

        JsonNode settled = row(run("chromium", "--sampling", "full", "--warmups", "1", "-n", "5", "--min-duration", "0", "--warmup-duration", "0"), "webgpu");
        assertThat(settled.path("verdictWindow").asBoolean(false)).isFalse();
        assertThat(settled.get("warmups").asInt()).isEqualTo(1);
        assertThat(settled.get("iterations").asInt()).isEqualTo(5);
        // settled figures: which nodes went to the CPU EP is listed from ONNX Runtime's own log
        assertThat(settled.get("placement").get("offNodes")).as(settled.get("placement").toString()).isNotEmpty();
    }
}
