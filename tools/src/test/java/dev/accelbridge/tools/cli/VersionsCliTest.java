package dev.accelbridge.tools.cli;

import dev.accelbridge.browser.testing.RequiresBrowser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.browser.launch.BrowserDiscovery;
import dev.accelbridge.browser.page.PageAssets;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.BrowserSpec;
import dev.accelbridge.core.testing.Nightly;
import dev.accelbridge.nativerunner.DjlOnnxRuntimeProvider;
import dev.accelbridge.nativerunner.TinyOnnx;
import dev.accelbridge.reports.store.MatrixStore;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Versions as dimensions through the command line, on the versions the build installed (no fetch): one run under two
 * onnxruntime-web releases, two headless-shell majors and two ONNX Runtimes; the rows, the store, compare and the report
 * by version; and bisect-versions finding where WebNN changed among the onnxruntime-web releases this machine has.
 */
@RequiresBrowser(BrowserKind.CHROMIUM_SHELL)
class VersionsCliTest {
    static final String PINNED = PageAssets.ortWebVersion();
    static final String OLDER_ORT = "1.19.0"; // put in the local Maven repository by native-runner's build for its tests
    @TempDir
    static Path tmp;
    static Path model;

    @BeforeAll
    static void model() throws Exception {
        assumeTrue(BrowserDiscovery.find(new BrowserSpec(BrowserKind.CHROMIUM_SHELL, "141")).isPresent(), "no 141 shell built");
        model = TinyOnnx.write(TinyOnnx.mlp(8, 16, 4, 2, 3L), Files.createDirectories(tmp.resolve("m")), "mlp").path();
    }

    @Nightly(guardedBy = "ProcessRuntimeProviderTest") // docs/testing.md#the-nightly-tier
    @Test
    void oneRunUnderTwoOfEachVersionStoresEachAsItsOwnCaseAndComparesThem() throws Exception {
        String db = tmp.resolve("v.duckdb").toString();
        Path out = tmp.resolve("out");
        CliRunner.Result r = CliRunner.run("run", "--db", db, "--out", out.toString(), "--model", model.toString(), "--dim", "batch=1",
                "--backends", "cpu,wasm,webnn-cpu", "--browser", "chromium-shell@141,chromium-shell", "--ort-web", "1.17.0," + PINNED,
                "--ort", OLDER_ORT + "," + DjlOnnxRuntimeProvider.environment().ortVersion(), "--warmups", "0", "--iterations", "3",
                "--min-duration", "0", "--warmup-duration", "0", "--json");
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        JsonNode rows = new ObjectMapper().readTree(r.out());
        assertThat(rows).hasSize(2 + 2 * 2 * 2); // cpu under two ONNX Runtimes, two backends in two shells under two releases
        Set<String> lanes = new HashSet<>();
        for (JsonNode row : rows) {
            lanes.add(row.get("requested").asText() + " " + row.get("lane").asText() + " " + row.path("browserMajor").asText("-") + " "
                    + row.path("ortWebVersion").asText("-") + " " + row.path("ortVersion").asText("-"));
            boolean oldWebnn = row.get("requested").asText().equals("webnn-cpu") && row.path("ortWebVersion").asText().equals("1.17.0");
            // 1.17.0 was built without WebNN; everything else runs, the older ONNX Runtime natively included (its outputs
            // were byte-swapped before Tensors read them in the machine's order)
            assertThat(row.get("status").asText()).as(row.get("caseKey").asText()).isIn(oldWebnn ? List.of("UNSUPPORTED", "FELL_BACK")
                    : List.of("PASSED"));
        }
        assertThat(lanes).contains("cpu native - - " + OLDER_ORT, "wasm chromium-shell 141 1.17.0 -", "webnn-cpu chromium-shell 153 " + PINNED + " -");
        try (MatrixStore s = MatrixStore.openReadOnly(Path.of(db))) {
            assertThat(s.allResults()).extracting(x -> x.id().lane().key()).contains("native+ort@" + OLDER_ORT,
                    "chromium-shell@141+ort-web@1.17.0", "chromium-shell@153+ort-web@" + PINNED);
        }
        CliRunner.Result c = CliRunner.run("compare", "--db", db, "--by", "ort-web", "1.17.0", PINNED);
        assertThat(c.exitCode()).as(c.err()).isEqualTo(Main.OK);
        assertThat(c.out()).contains("4 cases on both sides").containsPattern("webnn-cpu \\[chromium-shell@141].*(UNSUPPORTED|FELL_BACK) → PASSED");
        assertThat(CliRunner.run("compare", "--db", db, "--by", "ortVersion", OLDER_ORT, DjlOnnxRuntimeProvider.environment().ortVersion())
                .out()).contains("1 cases on both sides");
        String md = Files.readString(out.resolve("report.md"));
        assertThat(md).contains("## Versions compared", "| onnxruntime-web version | 1.17.0 → " + PINNED, "| browser version | 141 → 153",
                "| ONNX Runtime version | " + OLDER_ORT + " → ");
    }

    @Test
    void bisectVersionsFindsWhereWebnnChangedAmongTheReleasesThisMachineHas() throws Exception {
        Path out = tmp.resolve("bisect");
        String db = tmp.resolve("b.duckdb").toString();
        CliRunner.Result r = CliRunner.run("bisect-versions", "--db", db, "--out", out.toString(), "--model", model.toString(),
                "--dim", "batch=1", "--backend", "webnn-cpu", "--ort-web", "1.17.0.." + PINNED, "--cached-only", "--json");
        assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
        JsonNode j = new ObjectMapper().readTree(r.out());
        assertThat(j.get("dimension").asText()).isEqualTo("ortWebVersion");
        assertThat(j.get("changed").asBoolean()).isTrue();
        // the releases this machine has between the ends (the build's, and whatever the cache holds), oldest first; the ends run
        // first (1.17.0 UNSUPPORTED: no WebNN in its build), then the middle one
        assertThat(j.get("versions")).extracting(JsonNode::asText).startsWith("1.17.0", "1.18.0").endsWith(PINNED);
        assertThat(j.get("tried").get("1.17.0").asText()).isEqualTo("UNSUPPORTED");
        assertThat(j.get("lastGood").asText()).isEqualTo("1.17.0");
        assertThat(j.get("firstBad").asText()).isEqualTo("1.18.0");
        assertThat(j.get("firstBadResult").get("ortWebVersion").asText()).isEqualTo("1.18.0");
        Path readme = Path.of(j.get("repro").asText()).resolve("README.md");
        assertThat(Files.readString(readme)).contains("onnxruntime-web 1.17.0 → 1.18.0", "last good: onnxruntime-web 1.17.0",
                "first bad: onnxruntime-web 1.18.0", "--ort-web 1.17.0,1.18.0");
        assertThat(Path.of(j.get("repro").asText()).resolve("model.onnx")).exists();
        try (MatrixStore s = MatrixStore.openReadOnly(Path.of(db))) {
            // one run holds every version tried, and only those (how many depends on what the cache holds)
            List<String> tried = new ArrayList<>();
            j.get("tried").fieldNames().forEachRemaining(tried::add);
            assertThat(tried).contains("1.17.0", PINNED, "1.18.0");
            assertThat(s.results(j.get("runId").asText())).extracting(x -> x.id().lane().version("ortWebVersion"))
                    .containsExactlyInAnyOrderElementsOf(tried);
        }
    }

    @Test
    void aBisectionWithoutExactlyOneRangeOrWithAnEndNotAtHandIsBadInput() {
        String db = tmp.resolve("bad.duckdb").toString();
        CliRunner.Result two = CliRunner.run("bisect-versions", "--db", db, "--model", model.toString(), "--backend", "wasm",
                "--ort-web", "1.17.0..1.18.0", "--ort", "1.19.0..1.29.0");
        assertThat(two.exitCode()).isEqualTo(Main.ERROR);
        assertThat(two.err().strip().lines()).hasSize(1);
        assertThat(two.err()).contains("exactly one range");
        CliRunner.Result far = CliRunner.run("bisect-versions", "--db", db, "--model", model.toString(), "--backend", "wasm",
                "--ort-web", "1.17.0..9.9.9", "--cached-only");
        assertThat(far.exitCode()).isEqualTo(Main.ERROR);
        assertThat(far.err()).contains("onnxruntime-web 9.9.9 is not among the versions this machine has", "1.17.0");
        assertThat(Files.exists(Path.of(db))).as("refused before the store").isFalse();
    }
}
