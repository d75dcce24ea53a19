package dev.accelbridge.run;

import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.api.Accelbridge;
import dev.accelbridge.api.AccelbridgeSession;
import dev.accelbridge.api.RunRequest;
import dev.accelbridge.api.SessionOptions;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.OpVariant;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.fallback.Chain;
import dev.accelbridge.fallback.Chains;
import dev.accelbridge.reports.ops.OpTable;
import dev.accelbridge.suites.ops.OpSuite;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The project's guard: one variant per op of the op suite (every variant of the contrib ops on wasm and WebGPU), on wasm
 * and WebGPU (SwiftShader) in Chromium and on WebNN in
 * the headless shell, each with no fallback, against native ONNX Runtime. Every verdict must be the one
 * {@code ops-expectations.txt} records (PASSED where it says nothing): a change in the project that turns a pass into a
 * failure fails the build, while a browser's or onnxruntime-web's own behaviour is written there with its reason, as
 * onnxruntime-web's own test list does. {@code -Daccelbridge.ops.record=PATH} writes what was measured to PATH instead.
 */
class OpGuardTest {
    static final Path EXPECTATIONS = Path.of("src/test/resources/ops-expectations.txt");

    @TempDir
    Path dir;

    @RequiresBrowser({BrowserKind.CHROMIUM, BrowserKind.CHROMIUM_SHELL})
    @Test
    void everyOpsGuardVerdictIsTheExpectedOne() throws IOException {
        List<RunResult> results = new ArrayList<>();
        try (AccelbridgeSession session = Accelbridge.create(SessionOptions.builder().optStore(dir.resolve("ops.duckdb"))
                .optOutDir(dir.resolve("out")).build())) {
            results.addAll(run(session, BrowserKind.CHROMIUM, BackendId.WASM, BackendId.WEBGPU));
            results.addAll(run(session, BrowserKind.CHROMIUM_SHELL, BackendId.WEBNN_CPU));
        }
        Map<String, String> measured = new TreeMap<>();
        for (RunResult r : results) {
            if (r.id().lane().side() == dev.accelbridge.core.LaneSide.BROWSER) {
                measured.put(key(r.id()), OpTable.verdict(r).name() + (OpTable.verdict(r) == OpTable.Verdict.PASSED ? ""
                        : "  # " + reason(r)));
            }
        }
        assertThat(measured).hasSize(OpSuite.guardModelNames().size() * 2 + onePerOp(OpSuite.guardModelNames()).size());
        String record = System.getProperty("accelbridge.ops.record");
        if (record != null) {
            StringBuilder b = new StringBuilder();
            measured.forEach((k, v) -> {
                if (!v.equals("PASSED")) {
                    b.append(k).append(' ').append(v).append('\n');
                }
            });
            Files.writeString(Path.of(record), b.toString());
        }
        List<String> diffs = diffs(measured, expectations(Files.readAllLines(EXPECTATIONS)));
        assertThat(diffs).as("verdicts that differ from %s", EXPECTATIONS).isEmpty();
        // native ONNX Runtime, the reference, passes every guard case
        assertThat(results.stream().filter(r -> r.id().lane().side() == dev.accelbridge.core.LaneSide.NATIVE).map(r -> r.status().name()).distinct()).containsOnly("PASSED");
    }

    private List<RunResult> run(AccelbridgeSession session, BrowserKind browser, BackendId... backends) {
        List<BackendId> all = new ArrayList<>(List.of(backends));
        all.add(BackendId.CPU);
        // alone: an op a backend cannot run is its verdict, not wasm's
        Chains chains = Chains.defaults().with(java.util.Arrays.stream(backends).map(Chain::of).toList());
        RunPlan plan = RunPlan.builder().workload(w -> w.optSuites(List.of(ModelFamily.OPS)).optModelCache(dir.resolve("models")))
                // JSEP, whose verdicts the expectations hold: with no engine named WebGPU would run on the native EP too, under
                // the same key (the native EP's verdicts are measured in docs/op-suite.md, not guarded yet)
                .targets(t -> t.setBackends(all).optChains(chains).optBrowsers(List.of(browser))
                        .optVersions(dev.accelbridge.core.OrtWebEngine.AXIS, List.of(dev.accelbridge.core.OrtWebEngine.JSEP.id())))
                .limits(l -> l.optCaseTimeout(Duration.ofSeconds(60))).build();
        // WebNN runs the contrib ops on the CPU EP: one variant of each there, every variant on wasm and WebGPU
        Set<String> guard = Set.copyOf(browser == BrowserKind.CHROMIUM_SHELL ? onePerOp(OpSuite.guardModelNames())
                : OpSuite.guardModelNames());
        ModelSet all0 = ModelSet.load(plan);
        List<ModelCase> cases = all0.cases().stream().filter(c -> guard.contains(c.model().name())).toList();
        return session.run(RunRequest.builder().setPlan(plan).optModels(new ModelSet(cases, List.of())).build())
                .results().stream().map(dev.accelbridge.api.CaseResult::result).toList();
    }

    /** The first of {@code names} for each op (the guard has every contrib variant). */
    static List<String> onePerOp(List<String> names) {
        Set<String> seen = new java.util.HashSet<>();
        return names.stream().filter(n -> seen.add(OpVariant.parse(n).orElseThrow().qualifiedType())).toList();
    }

    private static String key(CaseId id) {
        // the guard holds a verdict whatever the versions it was measured at (its file says which): the backend and the lane's browser
        return id.requested().id() + "@" + id.lane().id() + " " + OpVariant.of(id).orElseThrow().modelName();
    }

    private static String reason(RunResult r) {
        String s = OpTable.verdict(r) == OpTable.Verdict.CPU ? "a node ran on the CPU EP (session refused with CPU fallback disabled)"
                : r.reason() == null ? "" : r.reason().lines().findFirst().orElse("");
        return s.length() > 160 ? s.substring(0, 160) + "…" : s;
    }

    /**
     * Where the measured verdicts and the expectations part: a verdict other than the expected one (PASSED where the file
     * says nothing), and an expectation line for a case no longer measured (a line that could never fail again).
     */
    static List<String> diffs(Map<String, String> measured, Map<String, String> expected) {
        List<String> diffs = new ArrayList<>();
        measured.forEach((k, v) -> {
            String want = expected.getOrDefault(k, "PASSED");
            String got = v.split(" ", 2)[0];
            if (!want.equals(got)) {
                diffs.add(k + ": expected " + want + ", got " + v);
            }
        });
        expected.keySet().stream().filter(k -> !measured.containsKey(k))
                .forEach(k -> diffs.add(k + ": no longer measured; remove its line from " + EXPECTATIONS.getFileName()));
        return diffs;
    }

    /** The expectation lines ({@code backend@lane model VERDICT  # reason}); a line the guard could not read is an error. */
    static Map<String, String> expectations(List<String> lines) {
        Map<String, String> m = new TreeMap<>();
        for (String line : lines) {
            String l = line.strip();
            if (l.isEmpty() || l.startsWith("#")) {
                continue;
            }
            String[] f = l.split("\\s+", 4);
            if (f.length < 3 || f.length == 4 && !f[3].startsWith("#")) {
                throw new IllegalArgumentException("not 'backend@lane model VERDICT  # reason': " + l);
            }
            OpTable.Verdict.valueOf(f[2]); // an unknown verdict throws
            if (m.put(f[0] + " " + f[1], f[2]) != null) {
                throw new IllegalArgumentException("a second line for " + f[0] + " " + f[1]);
            }
        }
        return m;
    }

    @Test
    void anExpectationForACaseNoLongerMeasuredIsReported() {
        Map<String, String> measured = Map.of("wasm@chromium op-Add", "PASSED", "webgpu@chromium op-Erf", "FAILED  # off");
        Map<String, String> expected = expectations(List.of("# header", "webgpu@chromium op-Erf FAILED  # off",
                "webgpu@chromium op-Gone FAILED  # an op the suite dropped"));
        assertThat(diffs(measured, expected)).containsExactly(
                "webgpu@chromium op-Gone: no longer measured; remove its line from ops-expectations.txt");
        assertThat(diffs(measured, expectations(List.of()))).containsExactly("webgpu@chromium op-Erf: expected PASSED, got FAILED  # off");
    }

    @Test
    void anExpectationLineTheGuardCannotReadIsAnError() {
        assertThatThrownBy(() -> expectations(List.of("webgpu@chromium op-Erf"))).hasMessageContaining("not 'backend@lane");
        assertThatThrownBy(() -> expectations(List.of("webgpu@chromium op-Erf FAILD  # typo"))).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> expectations(List.of("webgpu@chromium op-Erf FAILED", "webgpu@chromium op-Erf CPU")))
                .hasMessageContaining("a second line");
    }

    @Test
    void theExpectationsFileReads() throws IOException {
        assertThat(expectations(Files.readAllLines(EXPECTATIONS))).isNotEmpty();
    }
}
