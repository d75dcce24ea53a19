package dev.accelbridge.junit5;

import dev.accelbridge.api.Accelbridge;
import dev.accelbridge.api.AccelbridgeSession;
import dev.accelbridge.api.SessionOptions;
import dev.accelbridge.api.SessionRun;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Precision;
import dev.accelbridge.run.RunPlan;
import dev.accelbridge.suites.WildModels;
import dev.accelbridge.suites.precision.Variants;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import static dev.accelbridge.junit5.AccelbridgeAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The dtype assertions on a real native run of a folder shipped in three dtypes (fp32, q8, q4). */
class SessionRunAssertTest {
    @TempDir
    Path tmp;

    @Test
    void aRunSaysWhichDtypeToShipAndAFailureCarriesTheRecommendation() {
        Path folder = Variants.exportFolder(WildModels.sentenceEncoder(tmp).resolve("model.onnx"), tmp.resolve("enc"), "BertModel",
                List.of(Precision.Q8, Precision.Q4));
        RunPlan plan = RunPlan.builder().targets(t -> t.setBackends(List.of(BackendId.CPU)))
                .workload(w -> w.optUserModels(List.of(folder)).optModelCache(tmp.resolve("models")))
                .sampling(s -> s.optWarmups(1).optIterations(5).optMinDuration(Duration.ZERO).optWarmupDuration(Duration.ZERO))
                .build();
        SessionRun run;
        try (AccelbridgeSession session = Accelbridge.create(SessionOptions.builder().optStore(tmp.resolve("d.duckdb"))
                .optOutDir(tmp.resolve("out")).build())) {
            run = session.run(plan);
        }
        assertThat(run).dtypeWithin(BackendId.CPU, 0.95);
        assertThatThrownBy(() -> assertThat(run).recommendsDtype(BackendId.CPU, Precision.BNB4, 0.95))
                .hasMessageContaining("to ship bnb4 on cpu").hasMessageContaining("enc: cpu on native").hasMessageContaining("skipped");
        assertThatThrownBy(() -> assertThat(run).dtypeWithin(BackendId.WASM, 0.95)).hasMessageContaining("has none there");
    }
}
