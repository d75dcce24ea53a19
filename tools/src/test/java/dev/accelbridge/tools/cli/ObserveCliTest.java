package dev.accelbridge.tools.cli;

import dev.accelbridge.browser.observe.ObservedApp;
import dev.accelbridge.core.Seconds;
import dev.accelbridge.browser.testing.RequiresBrowser;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code accelbridge observe}: a user's app (its own server, a button to click) observed from the command line, its
 * session a row of the table, the store and the reports; bad steps and times refused in one line.
 */
class ObserveCliTest {
    private static final String IDLE = Seconds.of(ObservedApp.DONE_IDLE);

    @TempDir
    Path dir;

    @Test
    @RequiresBrowser
    void theAppsSessionIsJudgedAndReported() throws Exception {
        try (ObservedApp app = new ObservedApp(dir)) {
            CliRunner.Result r = CliRunner.run("observe", app.url("/"), "--step", "click #run:enabled", "--until", "body[data-done]",
                    "--idle", IDLE, "--timeout", "60", "--db", dir.resolve("m.duckdb").toString(), "--out", dir.resolve("out").toString(),
                    "--fail-on", "wrong-output,failed,unavailable");
            assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
            assertThat(r.out()).contains("app model " + app.model.sha256().substring(0, 12)).contains("wasm").contains("PASSED");
            assertThat(r.err()).contains("1 session(s) of " + app.url("/"));
            assertThat(Files.readString(dir.resolve("out/report.md"))).contains("observed in an app").contains("app model");
        }
    }

    @Test
    @RequiresBrowser
    void aPageWithNoSessionStillGetsItsReportsAndJsonPrintsTheRows() throws Exception {
        try (ObservedApp app = new ObservedApp(dir)) {
            CliRunner.Result r = CliRunner.run("observe", app.url("/empty"), "--idle", IDLE, "--timeout", "30", "--json",
                    "--db", dir.resolve("m.duckdb").toString(), "--out", dir.resolve("out").toString());
            assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
            assertThat(r.err()).doesNotContain("NullPointerException");
            assertThat(com.fasterxml.jackson.databind.json.JsonMapper.builder().build().readTree(r.out())).singleElement()
                    .satisfies(row -> assertThat(row.path("status").asText()).isEqualTo("UNAVAILABLE"));
            assertThat(Files.readString(dir.resolve("out/report.md"))).contains("no onnxruntime-web session");
        }
    }

    @Test
    @RequiresBrowser
    void anAppThatComputesInAWorkerIsJudgedThereAndAWorkerNotEnteredFailsAnyFailOn() throws Exception {
        try (ObservedApp app = new ObservedApp(dir)) {
            CliRunner.Result r = CliRunner.run("observe", app.url("/threaded"), "--step", "click #run:enabled", "--until", "body[data-done]",
                    "--idle", IDLE, "--timeout", "60", "--db", dir.resolve("m.duckdb").toString(), "--no-report",
                    "--fail-on", "wrong-output,failed,unavailable");
            assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
            assertThat(r.out()).contains("app model " + app.model.sha256().substring(0, 12)).contains("PASSED");
            assertThat(r.err()).contains("1 session(s) of " + app.url("/threaded"));

            CliRunner.Result shared = CliRunner.run("observe", app.url("/shared"), "--until", "body[data-done]", "--idle", IDLE,
                    "--timeout", "30", "--db", dir.resolve("m.duckdb").toString(), "--no-report", "--fail-on", "wrong-output");
            assertThat(shared.exitCode()).as(shared.err()).isEqualTo(Main.POLICY_FAILED);
            assertThat(shared.err()).contains("unseen: a shared-worker (" + app.url("/outer.mjs") + ")")
                    .contains("seen and not observed: what they computed is unseen");
        }
    }

    @Test
    void aStepOrATimeThatCannotBeIsRefusedInOneLine() {
        for (String[][] c : new String[][][] {
                {{"observe", "http://127.0.0.1:9/", "--step", "tap #x"}, {"--step 'tap #x' is not a step"}},
                {{"observe", "http://127.0.0.1:9/", "--idle", "0"}, {"--idle must be above 0"}},
                {{"observe", "http://127.0.0.1:9/", "--idle", "5", "--timeout", "2"}, {"below --timeout"}},
                {{"observe", "ftp://127.0.0.1/app"}, {"http(s) or file URL"}}}) {
            CliRunner.Result r = CliRunner.run(c[0]);
            assertThat(r.exitCode()).as(String.join(" ", c[0])).isEqualTo(Main.ERROR);
            assertThat(r.err().lines().findFirst().orElse("")).startsWith("error: ").contains(c[1][0]);
            assertThat(r.err()).doesNotContain("\tat ");
        }
    }
}
