package dev.accelbridge.tools.dashboard;

import dev.accelbridge.run.PlanDefaults;
import dev.accelbridge.run.RunPlan;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Precision;
import dev.accelbridge.reports.store.ResultJson;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The form the page posts becomes a run plan through the plan's builder, with nothing invented and no command line. */
class RunFormTest {
    @Test
    void arraysStringsAndNumbersBecomeThePlan() throws Exception {
        RunForm f = RunForm.parse(ResultJson.MAPPER.readTree("""
                {"suites": ["text", "vision"], "models": ["/m/a.onnx", " "], "backends": "wasm, cpu", "browsers": ["chromium"],
                 "iterations": "5", "warmups": 0, "precisions": [], "batchSizes": "1,4", "samplingDepth": "full"}"""));
        RunPlan p = f.plan();
        assertThat(p.workload().suites()).containsExactly(ModelFamily.TEXT, ModelFamily.VISION);
        assertThat(p.workload().userModels()).containsExactly(Path.of("/m/a.onnx"));
        assertThat(p.targets().backends()).containsExactly(BackendId.WASM, BackendId.CPU);
        assertThat(p.targets().browsers()).containsExactly(dev.accelbridge.core.BrowserSpec.of(BrowserKind.CHROMIUM));
        assertThat(p.sampling().iterations()).isEqualTo(5);
        assertThat(p.sampling().warmups()).isZero();
        assertThat(p.sampling().depth()).isEqualTo(dev.accelbridge.core.SamplingDepth.FULL);
        assertThat(p.workload().precisions()).containsExactly(Precision.FP32);
        assertThat(p.workload().batchSizes()).containsExactly(1, 4);
    }

    @Test
    void anEmptyFormTakesTheCommandsDefaults() throws Exception {
        RunPlan p = RunForm.parse(ResultJson.MAPPER.readTree("{}")).plan();
        assertThat(p.targets().backends()).isEqualTo(PlanDefaults.backends(false));
        assertThat(p.targets().browsers()).isEqualTo(PlanDefaults.browsers());
        assertThat(p.workload().suites()).containsExactly(ModelFamily.TEXT, ModelFamily.VISION, ModelFamily.AUDIO,
                ModelFamily.MULTIMODAL, ModelFamily.TEXT_GENERATION);
        assertThat(p.targets().parallel()).isEqualTo(PlanDefaults.parallel());
        assertThat(p.workload().batchSizes()).isEmpty();
        assertThat(p.sampling().depth()).as("a software adapter runs for its verdict").isEqualTo(dev.accelbridge.core.SamplingDepth.AUTO);
    }

    @Test
    void aBodyThatIsNotAnObjectOrAValueNotUnderstoodIsRefusedNamingIt() throws Exception {
        assertThatThrownBy(() -> RunForm.parse(ResultJson.MAPPER.readTree("[1]"))).isInstanceOf(AccelbridgeException.class)
                .hasMessageContaining("not a JSON object");
        assertThatThrownBy(() -> RunForm.parse(ResultJson.MAPPER.readTree("{\"iterations\": \"ten\"}")).plan())
                .isInstanceOf(AccelbridgeException.class).hasMessageContaining("sampling.iterations");
        assertThatThrownBy(() -> RunForm.parse(ResultJson.MAPPER.readTree("{\"backends\": [\"quantum\"]}")).plan())
                .isInstanceOf(AccelbridgeException.class).hasMessageContaining("quantum");
        assertThatThrownBy(() -> RunForm.parse(ResultJson.MAPPER.readTree("{\"batchSizes\": \"1,0\"}")).plan())
                .isInstanceOf(AccelbridgeException.class).hasMessageContaining("--batch-sizes");
        assertThatThrownBy(() -> RunForm.parse(ResultJson.MAPPER.readTree("{\"iterations\": 0}")).plan())
                .isInstanceOf(AccelbridgeException.class).hasMessageContaining("--iterations");
    }

    @Test
    void theFormAsksForEverythingRunCanThroughThePlansOwnGroups() throws Exception {
        // versions by their short keys, any other option by its group's field, as a stored plan holds it
        RunPlan p = RunForm.parse(ResultJson.MAPPER.readTree("""
                {"backends": "wasm,cpu", "ortWeb": "1.22.0, 1.23.0", "ort": ["1.22.0"],
                 "targets": {"policy": "ON_FAILURE_AND_WRONG_OUTPUT", "headless": true},
                 "workload": {"seed": 9, "shard": "1/2"},
                 "sampling": {"minDuration": "PT2S"},
                 "limits": {"retries": 2, "threads": 1, "caseTimeout": "PT90S"},
                 "drillDown": {"bisect": false, "recreate": 4}}""")).plan();
        assertThat(p.targets().versions()).isEqualTo(Map.of("ortWebVersion", List.of("1.22.0", "1.23.0"), "ortVersion", List.of("1.22.0")));
        assertThat(p.targets().policy()).isEqualTo(dev.accelbridge.fallback.FallbackPolicy.ON_FAILURE_AND_WRONG_OUTPUT);
        assertThat(p.workload().seed()).isEqualTo(9);
        assertThat(p.workload().shard()).hasValueSatisfying(s -> assertThat(s.toString()).isEqualTo("1/2"));
        assertThat(p.sampling().minDuration()).isEqualTo(java.time.Duration.ofSeconds(2));
        assertThat(p.limits().retries()).isEqualTo(2);
        assertThat(p.limits().threads()).contains(1);
        assertThat(p.limits().caseTimeout()).isEqualTo(java.time.Duration.ofSeconds(90));
        assertThat(p.drillDown().bisect()).isFalse();
        assertThat(p.drillDown().recreate()).isEqualTo(4);
        // the same plan the launched run reads back
        assertThat(dev.accelbridge.run.PlanJson.read(dev.accelbridge.run.PlanJson.write(p))).isEqualTo(p);
        assertThatThrownBy(() -> RunForm.parse(ResultJson.MAPPER.readTree("{\"limits\": {\"retries\": 99}}")).plan())
                .isInstanceOf(AccelbridgeException.class).hasMessageContaining("--retries");
    }
}
