package dev.accelbridge.nativerunner.process;

import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendException.Phase;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.BackendUnavailableException;
import dev.accelbridge.core.Caches;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionFailedException;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.Scenario;
import dev.accelbridge.core.UnsupportedModelException;
import dev.accelbridge.core.Untrusted;
import dev.accelbridge.nativerunner.OrtTelemetry;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * The native backends at another ONNX Runtime version than this process loaded: the same provider
 * ({@code DjlOnnxRuntimeProvider}) in a runner process of its own ({@link RunnerMain}), whose class path is this one with
 * that version's jar ({@link OrtJars}) in place of ONNX Runtime's, so two native libraries never meet in one process. Cases
 * cross as requests ({@link RunnerProtocol}); the timings are the runner's own, taken around the native call as in this
 * process. A runner that crashes or hangs fails its case with the reason and its log's tail, and is started again for the
 * next one. The jar is verified again at every start of a runner ({@link OrtJars}), and each case's provenance names the
 * sha256 verified.
 *
 * <p>Not thread-safe beyond one case at a time (the runner takes one request at a time).
 */
public final class ProcessRuntimeProvider implements BackendProvider {
    private static final Duration START_LIMIT = Duration.ofSeconds(120);
    private static final Duration PROBE_LIMIT = Duration.ofSeconds(120);

    private final String version;
    private final OrtJars jars;
    private final List<String> jvmOptions;
    private Process process;
    private Writer toRunner;
    private BufferedReader fromRunner;
    private Path log;
    private Path channel;
    private String nonce;
    private OrtJars.Jar jar;
    private final java.util.Deque<String> strayLines = new java.util.ArrayDeque<>();
    private RunnerProtocol.Hello hello;
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
        this.version = version;
        this.jars = jars;
        this.jvmOptions = List.copyOf(jvmOptions);
        start();
    }

    @Override
    public String name() {
        return "djl-onnxruntime " + version + " (runner process)";
    }

    @Override
    public Set<BackendId> backends() {
        Set<BackendId> out = new LinkedHashSet<>();
        hello.backends().forEach(b -> out.add(BackendId.parse(b)));
        return out;
    }

    @Override
    public Optional<String> runtimeVersion() {
        return Optional.ofNullable(hello.ortVersion());
    }

    @Override
    public synchronized Availability probe(BackendId backend) {
        try {
            return ask(request("probe", backend, null, null), PROBE_LIMIT).availability();
        } catch (RuntimeException e) {
            return Availability.unavailable(backend, "the ONNX Runtime " + version + " runner did not answer its probe: " + e.getMessage(),
                    name());
        }
    }

    @Override
    public synchronized Execution execute(ExecutionRequest request) {
        if (!(request.modelCase().scenario() instanceof Scenario.SinglePass)) {
            throw new UnsupportedModelException("A generation case runs on this process's ONNX Runtime only, not on a"
                    + " runner process of ONNX Runtime " + version, "run generation cases without --ort", null);
        }
        var options = request.modelCase().runtimeOptions().on(request.backend());
        if (!options.isDefault()) {
            // said, not dropped: the runner process's protocol has no session options yet
            throw new UnsupportedModelException("Session options (" + options.id() + ") are taken by this "
                    + "process's ONNX Runtime only, not by a runner process of ONNX Runtime " + version,
                    "run --runtime-option without --ort", null);
        }
        Path dir = null;
        try {
            ensureRunning();
            dir = Files.createTempDirectory("accelbridge-runner");
            RunnerProtocol.Request r = request("execute", request.backend(), request, dir);
            Duration limit = (request.timeout() == null ? Duration.ofHours(1) : request.timeout()).plusSeconds(30);
            RunnerProtocol.Answer a = ask(new RunnerProtocol.Request(r.id(), r.op(), r.backend(), request.modelCase().model(),
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
                    : a.provenance().withVerified(java.util.Map.of("onnxruntime " + version + " jar", jar.verified()));
            return new Execution(outputs, a.timings(), a.memory(), p, a.warnings(), null);
        } catch (IOException e) {
            throw new ExecutionFailedException(Phase.RUN, "The ONNX Runtime " + version + " runner's files could not be written or read: "
                    + e.getMessage(), "check free space in " + System.getProperty("java.io.tmpdir"), e);
        } finally {
            deleteTree(dir);
        }
    }

    private RunnerProtocol.Request request(String op, BackendId backend, ExecutionRequest r, Path dir) {
        return new RunnerProtocol.Request(++ids, op, backend.id(), null, List.of(), null, null, null, 0, 0, null, null, null, 0, 0,
                dir == null ? null : dir.toString());
    }

    /** Sends one request and waits for its answer; a runner that dies or passes {@code limit} is killed and the case fails. */
    private RunnerProtocol.Answer ask(RunnerProtocol.Request r, Duration limit) {
        ensureRunning();
        String name = RunnerProtocol.answerName(r.id());
        CompletableFuture<Boolean> announced = CompletableFuture.supplyAsync(() -> {
            try {
                toRunner.write(RunnerProtocol.JSON.writeValueAsString(r) + "\n");
                toRunner.flush();
                return awaitAnnouncement(name);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        });
        boolean got;
        try {
            got = announced.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            stop();
            throw new ExecutionFailedException(Phase.TIMEOUT, "The ONNX Runtime " + version + " runner gave no answer within "
                    + limit.toSeconds() + " s; it was killed" + logTail(), "give the case more time (--timeout)", e);
        } catch (ExecutionException e) {
            got = false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop();
            throw new ExecutionFailedException(Phase.RUN, "Interrupted while the ONNX Runtime " + version + " runner worked", null, e);
        }
        if (!got) {
            String tail = logTail();
            stop();
            throw new ExecutionFailedException(Phase.CRASH, "The ONNX Runtime " + version + " runner process ended" + tail,
                    "see the runner's log above; it starts again for the next case", null);
        }
        RunnerProtocol.Answer a;
        try {
            a = RunnerProtocol.receive(channel, name, RunnerProtocol.Answer.class);
        } catch (IOException e) {
            throw new ExecutionFailedException(Phase.RUN, "The ONNX Runtime " + version + " runner's answer is not understood: "
                    + abbreviate(e.getMessage()), null, e);
        }
        if (a.id() != r.id()) {
            stop();
            throw new ExecutionFailedException(Phase.RUN, "The ONNX Runtime " + version + " runner answered request " + a.id()
                    + " in the place of request " + r.id() + "; it was stopped", "report it: the runner is started again for the next case", null);
        }
        return a;
    }

    /**
     * Reads the runner's standard output until it announces {@code name} (true) or ends (false). Lines that are not the
     * protocol's (a JVM option that logs there, a native library's print) are kept, bounded, for messages, and ignored.
     */
    private boolean awaitAnnouncement(String name) throws IOException {
        String mark = nonce + " ";
        for (String line = fromRunner.readLine(); line != null; line = fromRunner.readLine()) {
            int at = line.indexOf(mark);
            if (at >= 0 && line.substring(at + mark.length()).equals(name)) {
                return true;
            }
            if (at < 0) {
                synchronized (strayLines) {
                    strayLines.addLast(abbreviate(line));
                    while (strayLines.size() > 20) {
                        strayLines.removeFirst();
                    }
                }
            }
        }
        return false;
    }

    private void ensureRunning() {
        if (process == null || !process.isAlive()) {
            start();
        }
    }

    private void start() {
        jar = jars.jar(version); // verified again at every start: the jar is loaded now
        try {
            log = Files.createTempFile("accelbridge-runner-" + version, ".log");
            channel = Files.createTempDirectory("accelbridge-runner-");
            nonce = java.util.HexFormat.of().formatHex(new java.security.SecureRandom().generateSeed(16));
            List<String> command = RunnerClasspath.command(jar.file(), jvmOptions, List.of(nonce, channel.toString()));
            ProcessBuilder pb = new ProcessBuilder(command).redirectError(log.toFile());
            pb.environment().putIfAbsent(OrtTelemetry.VARIABLE, "1"); // before its ORT starts
            process = pb.start();
            toRunner = new java.io.OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
            fromRunner = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8));
            CompletableFuture<Boolean> first = CompletableFuture.supplyAsync(() -> {
                try {
                    return awaitAnnouncement(RunnerProtocol.HELLO);
                } catch (IOException e) {
                    return false;
                }
            });
            if (!first.get(START_LIMIT.toSeconds(), TimeUnit.SECONDS)) {
                throw new BackendUnavailableException("The ONNX Runtime " + version + " runner process did not start" + logTail(),
                        "run '" + command.get(0) + " -version'; see the runner's log");
            }
            hello = RunnerProtocol.receive(channel, RunnerProtocol.HELLO, RunnerProtocol.Hello.class);
        } catch (IOException | ExecutionException | TimeoutException e) {
            String tail = logTail();
            stop();
            throw new BackendUnavailableException("The ONNX Runtime " + version + " runner process did not start: " + e + tail,
                    "see the runner's log");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop();
            throw new BackendUnavailableException("Interrupted while the ONNX Runtime " + version + " runner started", null);
        }
        if (hello.ortVersion() == null || !hello.ortVersion().equals(version)) {
            String loaded = hello.ortVersion();
            stop();
            throw new BackendUnavailableException("The runner process for ONNX Runtime " + version + " loaded "
                    + (loaded == null ? "no ONNX Runtime (" + abbreviate(hello.engineError()) + ")" : "ONNX Runtime " + abbreviate(loaded))
                    + logTail(), "this DJL engine may not run that ONNX Runtime version; try one close to the build's");
        }
    }

    private void stop() {
        if (process != null) {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
            try {
                process.waitFor(10, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            process = null;
        }
        deleteTree(channel);
        channel = null;
    }

    /**
     * The end of the runner's standard error, and the last lines it printed outside the protocol, for a message: what DJL
     * or ONNX Runtime said before it ended.
     */
    private String logTail() {
        String stray;
        synchronized (strayLines) {
            stray = strayLines.isEmpty() ? "" : " (its other output: …" + abbreviate(String.join(" | ", strayLines)) + ")";
        }
        try {
            String s = log == null ? "" : Files.readString(log, StandardCharsets.UTF_8).strip();
            return (s.isEmpty() ? "" : " (runner log: …" + abbreviate(s.substring(Math.max(0, s.length() - 600))) + ")") + stray;
        } catch (IOException e) {
            return stray;
        }
    }

    /** Text the runner wrote, one bounded line. */
    private static String abbreviate(String s) {
        return Untrusted.bounded(s == null ? "" : s.replaceAll("\\s+", " "), 600);
    }

    private static void deleteTree(Path dir) {
        try {
            Caches.deleteTree(dir);
        } catch (IOException ignored) {
            // a leftover temporary folder is harmless
        }
    }

    @Override
    public synchronized void close() {
        if (process != null && process.isAlive()) {
            try {
                toRunner.write("{\"id\":0,\"op\":\"exit\"}\n");
                toRunner.flush();
                process.waitFor(5, TimeUnit.SECONDS);
            } catch (IOException | InterruptedException e) {
                // it is stopped below
            }
        }
        stop();
        try {
            if (log != null) {
                Files.deleteIfExists(log);
            }
        } catch (IOException ignored) {
            // best effort
        }
    }

    @Override
    public String toString() {
        return name();
    }
}
