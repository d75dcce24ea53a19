package dev.accelbridge.nativerunner.process;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.MinDurations;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.Precision;
import dev.accelbridge.nativerunner.DjlOnnxRuntimeProvider;
import dev.accelbridge.nativerunner.NativeEnvironment;

import java.io.BufferedReader;
import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * A runner process: the native provider ({@link DjlOnnxRuntimeProvider}) on a class path whose ONNX Runtime jar is another
 * version's, answering its parent's requests one at a time ({@link RunnerProtocol}). Standard output carries nothing but
 * answers: whatever DJL or ONNX Runtime print goes to standard error, which the parent keeps for its messages.
 */
public final class RunnerMain {
    private RunnerMain() {
    }

    /** Runs until its parent says {@code exit} or closes its standard input. */
    public static void main(String[] args) throws Exception {
        PrintStream answers = new PrintStream(new FileOutputStream(FileDescriptor.out), true, StandardCharsets.UTF_8);
        System.setOut(System.err);
        DjlOnnxRuntimeProvider provider = new DjlOnnxRuntimeProvider();
        NativeEnvironment env = DjlOnnxRuntimeProvider.environment();
        answers.println(RunnerProtocol.JSON.writeValueAsString(new RunnerProtocol.Hello(env.ortVersion(),
                provider.backends().stream().map(BackendId::id).toList(), DjlOnnxRuntimeProvider.runtimeVersions(), env.engineError())));
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        for (String line = in.readLine(); line != null; line = in.readLine()) {
            RunnerProtocol.Request r = RunnerProtocol.JSON.readValue(line, RunnerProtocol.Request.class);
            if (r.op().equals("exit")) {
                break;
            }
            RunnerProtocol.Answer a;
            try {
                a = answer(provider, r);
            } catch (RuntimeException e) {
                a = new RunnerProtocol.Answer(r.id(), null, null, null, null, null, null, RunnerProtocol.Failure.of(e));
            }
            answers.println(RunnerProtocol.JSON.writeValueAsString(a));
        }
        provider.close();
    }

    private static RunnerProtocol.Answer answer(DjlOnnxRuntimeProvider provider, RunnerProtocol.Request r) throws Exception {
        BackendId backend = BackendId.parse(r.backend());
        if (r.op().equals("probe")) {
            return new RunnerProtocol.Answer(r.id(), provider.probe(backend), null, null, null, null, null, null);
        }
        ModelCase mc = new ModelCase(r.model(), r.inputSet(), RunnerProtocol.read(r.inputs()), Optional.empty(), r.freeDims(),
                Precision.parse(r.precision()));
        ExecutionRequest req = new ExecutionRequest(backend, mc, r.warmups(), r.iterations(),
                r.timeoutMs() == null ? null : Duration.ofMillis(r.timeoutMs()), r.threads(),
                r.loadTimeoutMs() == null ? null : Duration.ofMillis(r.loadTimeoutMs()), 0, 0, null,
                new MinDurations(Duration.ofMillis(r.warmupMs()), Duration.ofMillis(r.minMs())));
        Execution e = provider.execute(req);
        return new RunnerProtocol.Answer(r.id(), null, e.timings(), e.memory(), e.provenance(), e.warnings(),
                RunnerProtocol.write(e.outputs(), Path.of(r.dir()), "out-"), null);
    }
}
