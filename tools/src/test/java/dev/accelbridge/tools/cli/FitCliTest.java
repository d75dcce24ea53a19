package dev.accelbridge.tools.cli;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.reports.store.MatrixStore;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code fit} on a store a real WebGPU run filled: the measured model from its own ledger, a larger one of its family
 * scaled from it, both labelled predictions and never stored; a device class too small is exit 1 with the numbers; a
 * model with no ledger to rest on, or a size that is no size, is exit 2 naming the fix.
 */
class FitCliTest {
    @TempDir
    Path tmp;

    @RequiresBrowser
    @Test
    void aMeasuredLedgerAnswersForItsModelAndScalesToALargerOne() throws Exception {
        Path db = tmp.resolve("m.duckdb");
        // two timed runs: a case of one run alone (the op sweep's way) does not wait for its release, so it has no page memory
        CliRunner.Result run = CliRunner.run("run", "--suites", "vision", "--backends", "webgpu", "--browser", "chromium", "--engines", "jsep",
                "--warmups", "0", "--iterations", "2", "--min-duration", "0", "--warmup-duration", "0", "--quiet",
                "--db", db.toString(), "--out", tmp.resolve("out").toString());
        assertThat(run.exitCode()).as(run.err()).isEqualTo(Main.OK);
        long stored;
        try (MatrixStore s = MatrixStore.openReadOnly(db)) {
            stored = s.allResults().size();
        }
        ObjectMapper json = new ObjectMapper();
        CliRunner.Result own = CliRunner.run("fit", "--json", "--model", "convnet-small", "--device-memory", "1GiB", "--db", db.toString());
        assertThat(own.exitCode()).as(own.err()).isEqualTo(Main.OK);
        JsonNode o = json.readTree(own.out());
        assertThat(o.get("kind").asText()).isEqualTo("prediction");
        assertThat(o.get("measuredItself").asBoolean()).isTrue();
        assertThat(o.get("verdict").asText()).isEqualTo("FITS");
        long measuredPeak = o.get("measured").get("peakBytes").asLong();
        assertThat(o.get("peakBytes").asLong()).isEqualTo(measuredPeak).isPositive();

        CliRunner.Result large = CliRunner.run("fit", "--json", "--model", "convnet-large", "--size", "large", "--from", "convnet-small",
                "--device-memory", "1GiB", "--db", db.toString());
        assertThat(large.exitCode()).as(large.err()).isEqualTo(Main.OK);
        JsonNode l = json.readTree(large.out());
        assertThat(l.get("measuredItself").asBoolean()).isFalse();
        assertThat(l.get("target").get("weightBytes").asLong()).isGreaterThan(l.get("from").get("weightBytes").asLong());
        assertThat(l.get("peakBytes").asLong()).as("the larger model's weights at least").isGreaterThan(measuredPeak)
                .isGreaterThanOrEqualTo(l.get("target").get("weightBytes").asLong());

        // a device class below the prediction: exit 1, the check named with its numbers
        CliRunner.Result tiny = CliRunner.run("fit", "--model", "convnet-large", "--size", "large", "--from", "convnet-small",
                "--device-memory", "64KiB", "--max-buffer-size", "1KiB", "--db", db.toString());
        assertThat(tiny.exitCode()).as(tiny.err()).isEqualTo(Main.POLICY_FAILED);
        assertThat(tiny.out()).startsWith("PREDICTION (not a measurement)").contains("does not fit", "above the device's 64.0 KiB",
                "above the maxBufferSize of 1,024 bytes");

        CliRunner.Result none = CliRunner.run("fit", "--model", "convnet-large", "--size", "large", "--db", db.toString());
        assertThat(none.exitCode()).isEqualTo(Main.ERROR);
        assertThat(none.err()).contains("no GPU ledger of convnet-large", "--from");
        CliRunner.Result bad = CliRunner.run("fit", "--model", "convnet-small", "--device-memory", "4XB", "--db", db.toString());
        assertThat(bad.exitCode()).isEqualTo(Main.ERROR);
        assertThat(bad.err()).contains("'4XB' is not a size");
        try (MatrixStore s = MatrixStore.openReadOnly(db)) {
            assertThat(s.allResults()).as("a prediction is never stored").hasSize((int) stored);
        }
    }
}
