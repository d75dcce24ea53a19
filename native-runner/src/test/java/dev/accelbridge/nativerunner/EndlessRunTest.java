package dev.accelbridge.nativerunner;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.ExecutionFailedException;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.suites.OnnxModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * Found when tried: a model whose one run never ends (a Loop of 10^12 iterations, a few hundred bytes) held
 * {@code observe}'s native judging for ever, since a case's deadline was checked only between runs. ONNX Runtime is now
 * told to stop the run at the case's deadline, and the case fails with its timeout.
 */
class EndlessRunTest {
    @TempDir
    Path dir;

    @Test
    void aRunThatWouldNotEndStopsAtTheCasesTimeout() throws Exception {
        Path model = TinyOnnx.endlessLoop(dir);
        assertThat(Files.size(model)).isLessThan(400);
        ModelCase mc = new ModelCase(OnnxModels.inspect(model, ModelFamily.OTHER, "endless", "test"), "x",
                List.of(NamedTensor.ofFloats("x", new long[] {1}, new float[] {1})), Optional.empty());
        long t0 = System.nanoTime();
        assertThatThrownBy(() -> new DjlOnnxRuntimeProvider().execute(new ExecutionRequest(BackendId.CPU, mc, 0, 1, Duration.ofSeconds(3))))
                .isInstanceOf(ExecutionFailedException.class).hasMessageContaining("did not finish a run within its timeout of 3 s");
        assertThat(Duration.ofNanos(System.nanoTime() - t0)).as("stopped at its deadline, not at the loop's end").isLessThan(Duration.ofSeconds(30));
    }
}
