package dev.accelbridge.nativerunner.process;

import dev.accelbridge.core.BackendException;
import dev.accelbridge.core.DiagnosedLoadException;
import dev.accelbridge.core.ExecutionFailedException;
import dev.accelbridge.core.LoadDiagnosis;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A runner process's refused load crosses to the parent as the value it was: the parent's row keeps the diagnosis typed
 * (and writes its repro) as a case run in the parent's own ONNX Runtime does. Found when read: the diagnosis crossed only as
 * the sentence in its message, so a version lane's row had no diagnosis and no repro.
 */
class RunnerFailureTest {
    @Test
    void aDiagnosedLoadCrossesAsItsDiagnosis() throws Exception {
        LoadDiagnosis d = LoadDiagnosis.of("ONNX Runtime 1.22.0", List.of("all", "extended", "basic"), "disabled",
                "Load model failed: in node (ln_scale/Mul_7/LayerNormFusion/)").withRepro(new LoadDiagnosis.Repro(new byte[]{8, 7, 1}, 3));
        RunnerProtocol.Failure sent = RunnerProtocol.Failure.of(new DiagnosedLoadException("Session creation failed: " + d.sentence(), d, null));
        String wire = RunnerProtocol.JSON.writeValueAsString(sent);
        BackendException back = RunnerProtocol.JSON.readValue(wire, RunnerProtocol.Failure.class).toException(" [runner 1.22.0]");
        assertThat(back).isInstanceOf(DiagnosedLoadException.class).hasMessageEndingWith(" [runner 1.22.0]");
        assertThat(((DiagnosedLoadException) back).diagnosis()).isEqualTo(d);
        assertThat(((DiagnosedLoadException) back).diagnosis().optimizer()).isEqualTo("LayerNormFusion");
    }

    @Test
    void anUndiagnosedFailureStaysAPlainFailure() throws Exception {
        RunnerProtocol.Failure sent = RunnerProtocol.Failure.of(new ExecutionFailedException(BackendException.Phase.LOAD, "bad model", "fix it", null));
        BackendException back = RunnerProtocol.JSON.readValue(RunnerProtocol.JSON.writeValueAsString(sent), RunnerProtocol.Failure.class)
                .toException("");
        assertThat(back).isExactlyInstanceOf(ExecutionFailedException.class).hasMessage("bad model");
    }
}
