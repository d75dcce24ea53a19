package dev.accelbridge.nativerunner;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.suites.OnnxModels;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A process stopped from outside (SIGTERM: a CI's timeout, systemd, Ctrl-C's kin) while native ONNX Runtime runs a model
 * that would not end: the run is told to stop and the process ends with the signal's own status (143), not a crash.
 * Found when tried: it ended in SIGSEGV inside libonnxruntime, with a JVM crash report and a core file. A child process,
 * since the JVM's exit is what is tested.
 */
class ExitMidRunTest {
    @Test
    void sigtermDuringANativeRunEndsTheProcessWithoutACrash(@TempDir Path tmp) throws Exception {
        Path model = TinyOnnx.endlessLoop(tmp);
        ProcessBuilder pb = new ProcessBuilder(ProcessHandle.current().info().command().orElse("java"), "-cp",
                System.getProperty("java.class.path"), "-XX:ErrorFile=" + tmp.resolve("hs_err_%p.log"), Child.class.getName(),
                model.toString()).redirectErrorStream(true).directory(tmp.toFile());
        Process p = pb.start();
        StringBuilder out = new StringBuilder();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
            String line;
            while ((line = r.readLine()) != null) {
                out.append(line).append('\n');
                if (line.equals("running")) {
                    Thread.sleep(5000); // past the model's load, inside the native run, whose case timeout is minutes away
                    p.toHandle().destroy(); // SIGTERM, its output still read to the end
                }
            }
        }
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(out.toString()).contains("running").doesNotContain("SIGSEGV", "A fatal error has been detected");
        assertThat(p.exitValue()).as("%s", out).isEqualTo(143);
        try (Stream<Path> files = Files.list(tmp)) {
            assertThat(files.map(f -> f.getFileName().toString())).noneMatch(n -> n.startsWith("hs_err") || n.startsWith("core"));
        }
    }

    /** The child: one native CPU case of the model named, its timeout minutes away; says when it starts. */
    public static final class Child {
        public static void main(String[] args) {
            Path model = Path.of(args[0]);
            var spec = OnnxModels.inspect(model, ModelFamily.OTHER, "endless", model.getParent().toString());
            ModelCase c = new ModelCase(spec, "test", List.of(NamedTensor.ofFloats("x", new long[] {1}, new float[] {1})), Optional.empty());
            System.out.println("running");
            System.out.flush();
            new DjlOnnxRuntimeProvider().execute(new ExecutionRequest(BackendId.CPU, c, 0, 1, Duration.ofMinutes(10)));
        }
    }
}
