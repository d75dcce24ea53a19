package dev.accelbridge.bridge.dashboard;

import dev.accelbridge.bridge.run.PlanDefaults;
import dev.accelbridge.bridge.run.RunPlan;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Precision;
import dev.accelbridge.reports.store.ResultJson;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The form the page posts becomes a run plan through the plan's builder, with nothing invented and no command line. */
class RunFormTest {
    @Test
    void arraysStringsAndNumbersBecomeThePlan() throws Exception {
        RunForm f = RunForm.parse(ResultJson.MAPPER.readTree("""
                {"suites": ["text", "vision"], "models": ["/m/a.onnx", " "], "backends": "wasm, cpu", "browsers": ["chromium"],
                 "iterations": "5", "warmups": 0, "precisions": [], "batchSizes": "1,4"}"""));
        RunPlan p = f.plan();
        assertThat(p.suites()).containsExactly(ModelFamily.TEXT, ModelFamily.VISION);
        assertThat(p.userModels()).containsExactly(Path.of("/m/a.onnx"));
        assertThat(p.backends()).containsExactly(BackendId.WASM, BackendId.CPU);
        assertThat(p.browsers()).containsExactly(dev.accelbridge.core.BrowserSpec.of(BrowserKind.CHROMIUM));
        assertThat(p.iterations()).isEqualTo(5);
        assertThat(p.warmups()).isZero();
        assertThat(p.precisions()).containsExactly(Precision.FP32);
        assertThat(p.batchSizes()).containsExactly(1, 4);
    }

    @Test
    void anEmptyFormTakesTheCommandsDefaults() throws Exception {
        RunPlan p = RunForm.parse(ResultJson.MAPPER.readTree("{}")).plan();
        assertThat(p.backends()).isEqualTo(PlanDefaults.backends(false));
        assertThat(p.browsers()).isEqualTo(PlanDefaults.browsers());
        assertThat(p.suites()).containsExactly(ModelFamily.TEXT, ModelFamily.VISION, ModelFamily.AUDIO);
        assertThat(p.scheduling().parallel()).isEqualTo(PlanDefaults.parallel());
        assertThat(p.batchSizes()).isEmpty();
    }

    @Test
    void aBodyThatIsNotAnObjectOrAValueNotUnderstoodIsRefusedNamingIt() throws Exception {
        assertThatThrownBy(() -> RunForm.parse(ResultJson.MAPPER.readTree("[1]"))).isInstanceOf(AccelbridgeException.class)
                .hasMessageContaining("not a JSON object");
        assertThatThrownBy(() -> RunForm.parse(ResultJson.MAPPER.readTree("{\"iterations\": \"ten\"}")))
                .hasMessageContaining("iterations");
        assertThatThrownBy(() -> RunForm.parse(ResultJson.MAPPER.readTree("{\"backends\": [\"quantum\"]}")).plan())
                .isInstanceOf(AccelbridgeException.class).hasMessageContaining("quantum");
        assertThatThrownBy(() -> RunForm.parse(ResultJson.MAPPER.readTree("{\"batchSizes\": \"1,0\"}")).plan())
                .isInstanceOf(AccelbridgeException.class).hasMessageContaining("batch size");
        assertThatThrownBy(() -> RunForm.parse(ResultJson.MAPPER.readTree("{\"iterations\": 0}")).plan())
                .isInstanceOf(AccelbridgeException.class).hasMessageContaining("--iterations");
    }
}
