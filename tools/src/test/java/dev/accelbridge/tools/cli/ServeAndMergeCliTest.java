package dev.accelbridge.tools.cli;

import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.browser.launch.BrowserHandle;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.browser.launch.BrowserLaunchers;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.LaunchOptions;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.store.MatrixStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code serve} with a browser that joins by itself, and {@code export} → {@code merge} → {@code report} across stores. */
class ServeAndMergeCliTest {
    @TempDir
    Path tmp;

    @RequiresBrowser
    @Test
    void aBrowserThatOpensTheServedUrlJoinsAndRunsTheJobs() throws Exception {
        Path db = tmp.resolve("serve.duckdb");
        ServedCli serve = new ServedCli("serve", "--once", "--suites", "vision", "--backends", "wasm", "--warmups", "1", "-n", "3", "--min-duration", "0", "--warmup-duration", "0",
                "--db", db.toString());
        String pageUrl = serve.url.get(120, TimeUnit.SECONDS);
        // Nothing drives this browser: it is a plain process pointed at the URL, as a person's browser would be.
        try (BrowserHandle browser = BrowserLaunchers.forDriver(DriverKind.PROCESS).launch(
                LaunchOptions.builder().browser(BrowserKind.CHROMIUM).driver(DriverKind.PROCESS).build(), URI.create(pageUrl))) {
            assertThat(serve.exit.get(180, TimeUnit.SECONDS)).as(serve.err.toString()).isEqualTo(Main.OK);
        }
        assertThat(serve.outText.toString()).contains("PASSED");
        try (MatrixStore store = MatrixStore.open(db)) {
            List<RunResult> results = store.results(store.latestRun().orElseThrow());
            assertThat(results).extracting(RunResult::status).containsOnly(Status.PASSED);
            assertThat(results).anySatisfy(r -> assertThat(r.provenance().driver()).isEqualTo("manual"));
        }
    }

    @Test
    void exportedResultsMergeIntoAnotherStoreAndReport() throws Exception {
        Path a = tmp.resolve("a.duckdb");
        assertThat(CliRunner.run("run", "--native", "--suites", "vision", "--iterations", "3", "--min-duration", "0", "--warmup-duration", "0", "--warmups", "0",
                "--db", a.toString(), "--no-report").exitCode()).isEqualTo(Main.OK);
        Path export = tmp.resolve("a.json");
        CliRunner.Result ex = CliRunner.run("export", export.toString(), "--db", a.toString());
        assertThat(ex.exitCode()).as(ex.err()).isEqualTo(Main.OK);
        assertThat(Files.readString(export)).contains("accelbridge-matrix");

        Path b = tmp.resolve("b.duckdb");
        CliRunner.Result merged = CliRunner.run("merge", export.toString(), "--db", b.toString());
        assertThat(merged.exitCode()).as(merged.err()).isEqualTo(Main.OK);
        assertThat(merged.out()).contains("1 runs imported");
        CliRunner.Result again = CliRunner.run("merge", export.toString(), "--db", b.toString());
        assertThat(again.out()).contains("0 runs imported").contains("1 already present");

        Path out = tmp.resolve("report");
        CliRunner.Result report = CliRunner.run("report", "--out", out.toString(), "--db", b.toString());
        assertThat(report.exitCode()).as(report.err()).isEqualTo(Main.OK);
        assertThat(Files.readString(out.resolve("report.md"))).contains("convnet-small");
        assertThat(out.resolve("matrix.json")).exists();

        Path foreign = tmp.resolve("foreign.json");
        Files.writeString(foreign, "{\"format\":\"something-else\",\"schemaVersion\":1}");
        CliRunner.Result refused = CliRunner.run("merge", foreign.toString(), "--db", b.toString());
        assertThat(refused.exitCode()).isEqualTo(Main.ERROR);
        assertThat(refused.err()).startsWith("error: ").contains(foreign.toString());
    }
}
