package dev.accelbridge.nativerunner.process;

import dev.accelbridge.core.BackendException.Phase;
import dev.accelbridge.core.BackendUnavailableException;
import dev.accelbridge.core.Caches;
import dev.accelbridge.core.ExecutionFailedException;
import dev.accelbridge.core.Untrusted;
import dev.accelbridge.nativerunner.OrtTelemetry;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * One runner process of an ONNX Runtime version ({@link RunnerMain}): started with its jar verified again, asked one
 * request at a time through its channel, killed when it hangs, dies or answers out of turn and started again for the
 * next request, and the tail of its log kept for messages. {@link ProcessRuntimeProvider} turns cases into its requests.
 */
final class RunnerProcess {
    private static final Duration START_LIMIT = Duration.ofSeconds(120);

    private final String version;
    private final OrtJars jars;
    private final List<String> jvmOptions;
    private final java.util.Map<String, String> environment;
    private final Deque<String> strayLines = new ArrayDeque<>();
    private Process process;
    private Writer toRunner;
    private BufferedReader fromRunner;
    private Path log;
    private Path channel;
    private String nonce;
    private OrtJars.Jar jar;
    private RunnerProtocol.Hello hello;

    /**
     * Starts a runner of ONNX Runtime {@code version}, its jar from {@code jars} and {@code jvmOptions} before its class path.
     *
     * @throws BackendUnavailableException when the version cannot be had, or its runner does not start or loads another
     */
    RunnerProcess(String version, OrtJars jars, List<String> jvmOptions) {
        this(version, jars, jvmOptions, java.util.Map.of());
    }

    /** The same, with {@code environment} on top of this process's (a native WebGPU runner's Vulkan driver). */
    RunnerProcess(String version, OrtJars jars, List<String> jvmOptions, java.util.Map<String, String> environment) {
        this.version = version;
        this.jars = jars;
        this.jvmOptions = List.copyOf(jvmOptions);
        this.environment = java.util.Map.copyOf(environment);
        start();
    }

    /** What the running runner said when it started (started again after a crash: read it fresh). */
    RunnerProtocol.Hello hello() {
        return hello;
    }

    /** The jar the running runner loaded, as verified at its start. */
    OrtJars.Jar jar() {
        return jar;
    }

    /** Sends one request and waits for its answer; a runner that dies or passes {@code limit} is killed and the case fails. */
    RunnerProtocol.Answer ask(RunnerProtocol.Request r, Duration limit) {
        ensureRunning();
        String name = RunnerProtocol.answerName(r.id());
        CompletableFuture<Boolean> announced = CompletableFuture.supplyAsync(() -> {
            try {
                toRunner.write(RunnerProtocol.JSON.writeValueAsString(r) + "\n");
                toRunner.flush();
                return awaitAnnouncement(name);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        boolean got;
        try {
            got = announced.get(limit.toMillis(), TimeUnit.MILLISECONDS);
        } catch (TimeoutException e) {
            stop();
            throw new ExecutionFailedException(Phase.TIMEOUT, "The ONNX Runtime " + version + " runner gave no answer within "
                    + limit.toSeconds() + " s; it was killed" + logTail(), "give the case more time (--timeout)", e);
        } catch (ExecutionException e) { // the request could not be written, or the answer's mark not read
            String tail = exitNote() + logTail();
            stop();
            Throwable c = e.getCause() instanceof UncheckedIOException u ? u.getCause() : e.getCause();
            throw new ExecutionFailedException(Phase.CRASH, "The ONNX Runtime " + version + " runner could not be asked: "
                    + abbreviate(String.valueOf(c)) + tail, "it starts again for the next case", c);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            stop();
            throw new ExecutionFailedException(Phase.RUN, "Interrupted while the ONNX Runtime " + version + " runner worked", null, e);
        }
        if (!got) {
            String tail = exitNote() + logTail();
            stop();
            throw new ExecutionFailedException(Phase.CRASH, "The ONNX Runtime " + version + " runner process ended" + tail,
                    tail.contains("runner log:") || tail.contains("other output:") ? "read what it said; it starts again for the next case"
                            : "it said nothing before it ended (a native crash or a kill); it starts again for the next case", null);
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

    void ensureRunning() {
        if (process == null || !process.isAlive()) {
            start();
        }
    }

    private void start() {
        jar = jars.jar(version); // verified again at every start: the jar is loaded now
        try {
            log = Files.createTempFile("accelbridge-runner-" + version, ".log");
            channel = Files.createTempDirectory("accelbridge-runner-");
            nonce = HexFormat.of().formatHex(new SecureRandom().generateSeed(16));
            List<String> command = RunnerClasspath.command(jar.file(), jvmOptions, List.of(nonce, channel.toString()));
            ProcessBuilder pb = new ProcessBuilder(command).redirectError(log.toFile());
            pb.environment().putIfAbsent(OrtTelemetry.VARIABLE, "1"); // before its ORT starts
            pb.environment().putAll(environment);
            process = pb.start();
            toRunner = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
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
    /** How the runner ended, where it has ("exit status 134, signal 6"): a silent native crash says no more than this. */
    private String exitNote() {
        try {
            if (process != null && process.waitFor(2, TimeUnit.SECONDS)) {
                int code = process.exitValue();
                return " (exit status " + code + (code > 128 ? ", signal " + (code - 128) : "") + ")";
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return "";
    }

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

    static void deleteTree(Path dir) {
        try {
            Caches.deleteTree(dir);
        } catch (IOException ignored) {
            // a leftover temporary folder is harmless
        }
    }

    /** Asks the runner to exit, stops it if it does not, and deletes its log. */
    void close() {
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
}
