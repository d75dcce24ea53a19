package dev.accelbridge.nativerunner;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.suites.onnx.GraphBuilder;
import dev.accelbridge.suites.OnnxModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What native ONNX Runtime does in a process of its own, as a user's terminal and home folder see it (found when tried:
 * an initializer named with OSC and CSI sequences retitled the terminal and cleared the screen through ONNX Runtime's own
 * "Removing initializer" warning; and ONNX Runtime wrote {@code Microsoft/DeveloperTools/.onnxruntime/onnxruntime.db}
 * under the user's cache folder whatever Accelbridge's cache said). The process's stderr and its home are a child
 * process's, since native code writes to the file descriptor, past any Java stream.
 */
class OrtQuietTest {
    static final String HOSTILE = "w\u001B]0;pwned\u0007\u001B[2J\u001B[31m";

    @Test
    void aModelsNamesNeverReachTheTerminalThroughOrtsLogAndOrtWritesNothingUnderHome(@TempDir Path tmp) throws Exception {
        GraphBuilder g = new GraphBuilder("quiet", 13);
        String x = g.input("x", DType.FLOAT32, 1L, 4L);
        g.uniform(HOSTILE, 1.0, 4, 4); // used by no node: ONNX Runtime removes it, and warns naming it
        g.opInto("Relu", "y", List.of(x));
        g.output("y", DType.FLOAT32, 1L, 4L);
        Path model = tmp.resolve("model.onnx");
        Files.write(model, g.build("unused initializer").toByteArray());
        Path home = Files.createDirectories(tmp.resolve("home"));

        List<String> cmd = new ArrayList<>(List.of(ProcessHandle.current().info().command().orElse("java"), "-cp",
                System.getProperty("java.class.path"), Child.class.getName(), model.toString()));
        ProcessBuilder pb = new ProcessBuilder(cmd).redirectErrorStream(true);
        pb.environment().put("HOME", home.toString());
        pb.environment().remove("XDG_CACHE_HOME");
        pb.environment().remove(OrtTelemetry.VARIABLE);
        Process p = pb.start();
        byte[] out = p.getInputStream().readAllBytes();
        assertThat(p.waitFor(120, TimeUnit.SECONDS)).isTrue();
        String text = new String(out, StandardCharsets.UTF_8);
        assertThat(p.exitValue()).as(text).isZero();
        assertThat(text).contains("ran: PASSED");
        assertThat(text).as("ONNX Runtime's log").doesNotContain("\u001B", "\u0007", "pwned", "Removing initializer");
        assertThat(home.resolve(".cache").resolve("Microsoft")).as("ONNX Runtime's telemetry queue").doesNotExist();
    }

    /** The child: one native CPU case of the model named. */
    public static final class Child {
        public static void main(String[] args) {
            Path model = Path.of(args[0]);
            var spec = OnnxModels.inspect(model, ModelFamily.OTHER, "quiet", model.getParent().toString());
            ModelCase c = new ModelCase(spec, "test", List.of(NamedTensor.ofFloats("x", new long[] {1, 4}, new float[] {-1, 0, 1, 2})),
                    Optional.empty());
            new DjlOnnxRuntimeProvider().execute(new ExecutionRequest(BackendId.CPU, c, 0, 2, Duration.ofMinutes(1)));
            System.out.println("ran: PASSED");
        }
    }
}
