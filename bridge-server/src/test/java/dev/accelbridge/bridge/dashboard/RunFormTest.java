package dev.accelbridge.bridge.dashboard;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.reports.store.ResultJson;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The form the page posts becomes the arguments of `accelbridge run`, in one order, with nothing invented. */
class RunFormTest {
    @Test
    void arraysStringsAndNumbersBecomeTheRunArguments() throws Exception {
        RunForm f = RunForm.parse(ResultJson.MAPPER.readTree("""
                {"suites": ["text", "vision"], "models": ["/m/a.onnx", " "], "backends": "wasm, cpu", "browsers": ["chromium"],
                 "iterations": "5", "warmups": 0, "precisions": [], "batchSizes": "1,4"}"""));
        assertThat(f.args()).containsExactly("--suites", "text,vision", "--model", "/m/a.onnx", "--backends", "wasm,cpu",
                "--browser", "chromium", "--iterations", "5", "--warmups", "0", "--batch-sizes", "1,4");
    }

    @Test
    void anEmptyFormLeavesEveryDefaultToTheCommand() throws Exception {
        assertThat(RunForm.parse(ResultJson.MAPPER.readTree("{}")).args()).isEmpty();
    }

    @Test
    void aBodyThatIsNotAnObjectOrANonNumberIsRefusedNamingTheField() throws Exception {
        assertThatThrownBy(() -> RunForm.parse(ResultJson.MAPPER.readTree("[1]"))).isInstanceOf(AccelbridgeException.class)
                .hasMessageContaining("not a JSON object");
        assertThatThrownBy(() -> RunForm.parse(ResultJson.MAPPER.readTree("{\"iterations\": \"ten\"}")))
                .hasMessageContaining("iterations");
    }
}
