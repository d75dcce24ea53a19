package dev.accelbridge.nativerunner.process;

import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendException.Phase;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.BackendUnavailableException;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionFailedException;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.Scenario;
import dev.accelbridge.core.UnsupportedModelException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The native backends at another ONNX Runtime version than this process loaded: the same provider
 * ({@code DjlOnnxRuntimeProvider}) in a runner process of its own ({@link RunnerMain}), whose class path is this one with
 * that version's jar ({@link OrtJars}) in place of ONNX Runtime's, so two native libraries never meet in one process. Cases
 * cross as requests ({@link RunnerProtocol}); the timings are the runner's own, taken around the native call as in this
 * process. A runner that crashes or hangs fails its case with the reason and its log's tail, and is started again for the
 * next one. The jar is verified again at every start of a runner ({@link OrtJars}), and each case's provenance names the
 * sha256 verified.
 *
 * <p>Not thread-safe beyond one case at a time (the runner takes one request at a time). The process itself is
 * {@link RunnerProcess}'s.
 */
public final class ProcessRuntimeProvider implements BackendProvider {
    private static final Duration PROBE_LIMIT = Duration.ofSeconds(120);

    private final String version;
    private final RunnerProcess runner;
    /** What this runner is, in a refusal ("a runner process of ONNX Runtime 1.19.0"), and what a user does instead. */
    private final String what;
    private final String instead;
    private long ids;

    /**
     * Starts a runner of ONNX Runtime {@code version}.
     *
     * @throws BackendUnavailableException when the version cannot be had, or its runner does not start or loads another
     */
    public ProcessRuntimeProvider(String version) {
        this(version, OrtJars.defaults(), List.of());
    }

    /** A runner with its jar from {@code jars} and {@code jvmOptions} before its class path. */
    ProcessRuntimeProvider(String version, OrtJars jars, List<String> jvmOptions) {
        this(version, jars, jvmOptions, Map.of(), "a runner process of ONNX Runtime " + version, "without --ort");
    }

    /**
     * A runner with {@code environment} on top of this process's, called {@code what} in its refusals, which tell a user to
     * run such a case {@code instead}.
     */
    ProcessRuntimeProvider(String version, OrtJars jars, List<String> jvmOptions, Map<String, String> environment, String what,
                           String instead) {
        this.version = version;
        this.what = what;
        this.instead = instead;
        this.runner = new RunnerProcess(version, jars, jvmOptions, environment);
    }

    @Override
    public String name() {
        return "djl-onnxruntime " + version + " (runner process)";
    }

    @Override
    public Set<BackendId> backends() {
        Set<BackendId> out = new LinkedHashSet<>();
        runner.hello().backends().forEach(b -> out.add(BackendId.parse(b)));
        return out;
    }

    @Override
    public Optional<String> runtimeVersion() {
        return Optional.ofNullable(runner.hello().ortVersion());
    }

    @Override
    public synchronized Availability probe(BackendId backend) {
        try {
            return runner.ask(request("probe", backend, null, null), PROBE_LIMIT).availability();
        } catch (RuntimeException e) {
            return Availability.unavailable(backend, "the ONNX Runtime " + version + " runner did not answer its probe: " + e.getMessage(),
                    name());
        }
    }

    @Override
    public synchronized Execution execute(ExecutionRequest request) {
        if (!(request.modelCase().scenario() instanceof Scenario.SinglePass)) {
            throw new UnsupportedModelException("A generation case is not run on " + what + ": a runner process runs single "
                    + "passes only", "run generation cases " + instead, null);
        }
        var options = request.modelCase().runtimeOptions().on(request.backend());
        if (!options.isDefault()) {
            // said, not dropped: the runner process's protocol has no session options yet
            throw new UnsupportedModelException("Session options (" + options.id() + ") are taken by this process's ONNX Runtime "
                    + "only, not by " + what, "run --runtime-option " + instead, null);
        }
        Path dir = null;
        try {
            runner.ensureRunning();
            dir = Files.createTempDirectory("accelbridge-runner");
            RunnerProtocol.Request r = request("execute", request.backend(), request, dir);
            Duration limit = (request.timeout() == null ? Duration.ofHours(1) : request.timeout()).plusSeconds(30);
            RunnerProtocol.Answer a = runner.ask(new RunnerProtocol.Request(r.id(), r.op(), r.backend(), request.modelCase().model(),
                    RunnerProtocol.write(request.modelCase().inputs(), dir, "in-"), request.modelCase().freeDims(),
                    request.modelCase().precision().id(), request.modelCase().inputSet(), request.warmups(), request.iterations(),
                    request.timeout() == null ? null : request.timeout().toMillis(), request.threads(),
                    request.loadTimeout() == null ? null : request.loadTimeout().toMillis(), request.durations().warmup().toMillis(),
                    request.durations().timed().toMillis(), dir.toString()), limit);
            if (a.error() != null) {
                throw a.error().toException(" [ONNX Runtime " + version + " runner process]");
            }
            List<NamedTensor> outputs = RunnerProtocol.read(a.outputs());
            Provenance p = a.provenance() == null ? null
                    : a.provenance().withVerified(Map.of("onnxruntime " + version + " jar", runner.jar().verified()));
            return new Execution(outputs, a.timings(), a.memory(), p, a.warnings(), null);
        } catch (IOException e) {
            throw new ExecutionFailedException(Phase.RUN, "The ONNX Runtime " + version + " runner's files could not be written or read: "
                    + e.getMessage(), "check free space in " + System.getProperty("java.io.tmpdir"), e);
        } finally {
            RunnerProcess.deleteTree(dir);
        }
    }

    private RunnerProtocol.Request request(String op, BackendId backend, ExecutionRequest r, Path dir) {
        return new RunnerProtocol.Request(++ids, op, backend.id(), null, List.of(), null, null, null, 0, 0, null, null, null, 0, 0,
                dir == null ? null : dir.toString());
    }

    @Override
    public synchronized void close() {
        runner.close();
    }

    @Override
    public String toString() {
        return name();
    }
}
