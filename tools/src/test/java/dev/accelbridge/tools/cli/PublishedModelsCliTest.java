package dev.accelbridge.tools.cli;

import dev.accelbridge.browser.testing.RequiresBrowser;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.core.testing.Nightly;
import dev.accelbridge.suites.PublishedModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Published models, not ours (PublishedModels: npm packages and Maven Central jars pinned by version and sha256): Silero
 * VAD v5 (audio: a rank-0 int64 rate, an LSTM state, an If on the rate), PP-OCRv4 recognition (text lines) and detection
 * (vision, at 640 x 640) and IMG.LY's 44 MB int8 background-removal model at its real 1024 x 1024 with 124 MB of outputs,
 * each run natively and on wasm
 * in Chromium through the CLI, fed by the accelbridge.json a user would write (or by nothing): every case PASSES.
 */
@Nightly(guardedBy = "DtypeFolderCliTest") // docs/testing.md#the-nightly-tier
class PublishedModelsCliTest {
    @TempDir
    Path tmp;

    @RequiresBrowser
    @Test
    void publishedAudioTextAndVisionModelsPassNativelyAndOnWasm() throws Exception {
        assumeTrue(PublishedModels.installed().isPresent(), "the published models are not installed (test-suites/published)");
        assumeTrue(PublishedModels.installedJars().isPresent(), "the published Maven models are not copied (test-suites/published/maven)");
        List<JsonNode> all = new ArrayList<>();
        for (String family : List.of("audio", "text", "vision")) {
            List<String> args = new ArrayList<>(List.of("run", "--family", family, "--backends", "wasm,cpu", "--browser", "chromium",
                    "--json", "--warmups", "0", "--iterations", "1", "--min-duration", "0", "--warmup-duration", "0", "--no-report",
                    "--db", tmp.resolve("m.duckdb").toString(), "--out", tmp.resolve("out").toString()));
            for (PublishedModels.Published m : published()) {
                if (m.family().equals(family)) {
                    args.add("--model");
                    args.add(PublishedModels.folder(m, tmp.resolve(family)).toString());
                }
            }
            CliRunner.Result r = CliRunner.run(args.toArray(String[]::new));
            assertThat(r.exitCode()).as(r.err()).isEqualTo(Main.OK);
            new ObjectMapper().readTree(r.out()).forEach(all::add);
        }
        assertThat(all).hasSize(2 * published().size());
        for (JsonNode n : all) {
            String what = n.get("model").asText() + " on " + n.get("requested").asText();
            assertThat(n.get("status").asText()).as(what + ": " + n.get("reason")).isEqualTo("PASSED");
            assertThat(n.get("modelSha256").asText()).isIn(published().stream().map(PublishedModels.Published::sha256).toList());
            if (n.get("requested").asText().equals("wasm")) {
                assertThat(n.get("parityAgainst").asText()).as(what).isEqualTo("native-cpu");
            }
        }
        JsonNode vad = all.stream().filter(n -> n.get("model").asText().equals("silero-vad-v5")).findFirst().orElseThrow();
        assertThat(vad.get("suite").asText()).isEqualTo("audio");
        assertThat(vad.get("inputShapes").asText()).isEqualTo("input=1x512;state=2x1x128;sr=");
    }

    /** The npm packages' models (the sentence embedders run as one folder of two dtypes: DtypeFolderCliTest). */
    private static List<PublishedModels.Published> published() {
        return PublishedModels.ALL;
    }
}
