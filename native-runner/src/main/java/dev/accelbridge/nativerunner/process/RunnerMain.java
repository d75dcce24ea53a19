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
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Optional;

/**
 * A runner process: the native provider ({@link DjlOnnxRuntimeProvider}) on a class path whose ONNX Runtime jar is another
 * version's, answering its parent's requests one at a time ({@link RunnerProtocol}). Usage: {@code RunnerMain NONCE DIR}.
 * Answers travel as files in DIR, a private folder of the parent's; standard output carries only the short line
 * {@code NONCE answer ID} that says one is ready, so whatever else lands there (a JVM option that logs to standard
 * output, a native library's print) is ignored by the parent instead of breaking the protocol.
 */
public final class RunnerMain {
    private RunnerMain() {
    }

    /** Runs until its parent says {@code exit} or closes its standard input. */
    public static void main(String[] args) throws Exception {
        String nonce = args[0];
        Path channel = Path.of(args[1]);
        FileOutputStream stdout = new FileOutputStream(FileDescriptor.out);
        System.setOut(System.err);
        DjlOnnxRuntimeProvider provider = new DjlOnnxRuntimeProvider();
        NativeEnvironment env = DjlOnnxRuntimeProvider.environment();
        RunnerProtocol.send(stdout, nonce, channel, RunnerProtocol.HELLO, new RunnerProtocol.Hello(env.ortVersion(),
                provider.backends().stream().map(BackendId::id).toList(), DjlOnnxRuntimeProvider.runtimeVersions(), env.engineError()));
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
            RunnerProtocol.send(stdout, nonce, channel, RunnerProtocol.answerName(r.id()), a);
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
