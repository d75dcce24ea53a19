package dev.accelbridge.nativerunner.process;

import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendException.Phase;
import dev.accelbridge.core.BackendException;
import dev.accelbridge.core.BackendUnavailableException;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.Decoding;
import dev.accelbridge.core.DiagnosedLoadException;
import dev.accelbridge.core.ExecutionFailedException;
import dev.accelbridge.core.LoadDiagnosis;
import dev.accelbridge.core.MemoryUsage;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.ScenarioFigures;
import dev.accelbridge.core.Timings;
import dev.accelbridge.core.UnsupportedModelException;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * What a parent and its runner process say to each other: a request is one JSON line on the runner's standard input; an
 * answer is a JSON file in the parent's private channel folder, announced by one short line {@code NONCE NAME} on the
 * runner's standard output (the nonce a random value the parent gave at start, so nothing else printed there can pass for
 * an announcement). Lines without it are not the protocol's: a JVM option that logs to standard output broke the earlier
 * one-answer-per-line protocol with an opaque Jackson message. Every answer carries its request's id, which the parent
 * checks. Tensors travel as files of their raw bytes beside the request, so a large input never crosses as text. Both
 * sides are this class path less ONNX Runtime's jar, so the core records ({@link Timings}, {@link Provenance},
 * {@link ModelSpec}) cross as Jackson writes them.
 */
final class RunnerProtocol {
    /**
     * NaN and infinite figures cross as Jackson's quoted "NaN"; unknown fields of a newer side are ignored; a figure that may
     * be unknown ({@code OptionalDouble}, as a model's cost) crosses as its value or null.
     */
    static final ObjectMapper JSON = JsonMapper.builder().enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS)
            .addModule(new com.fasterxml.jackson.datatype.jdk8.Jdk8Module())
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).addMixIn(ScenarioFigures.class, FiguresKind.class).build();

    /** A timings' scenario figures cross named by their kind (core carries no Jackson). */
    @com.fasterxml.jackson.annotation.JsonTypeInfo(use = com.fasterxml.jackson.annotation.JsonTypeInfo.Id.NAME, property = "kind")
    @com.fasterxml.jackson.annotation.JsonSubTypes({
            @com.fasterxml.jackson.annotation.JsonSubTypes.Type(value = ScenarioFigures.SinglePass.class, name = "single-pass"),
            @com.fasterxml.jackson.annotation.JsonSubTypes.Type(value = Decoding.class, name = "generation")})
    private interface FiguresKind {
    }

    /** The hello's name in the channel. */
    static final String HELLO = "hello";
    /** The largest answer file read: an answer's samples and outputs' names, not its tensors (those are files of their own). */
    static final long MAX_ANSWER = 64L << 20;

    private RunnerProtocol() {
    }

    /** The channel file name of request {@code id}'s answer. */
    static String answerName(long id) {
        return "answer-" + id;
    }

    /**
     * Writes {@code value} as {@code channel/NAME.json} (through a temporary name, so it is whole when announced), then
     * announces it on {@code stdout} in one short write.
     */
    static void send(java.io.OutputStream stdout, String nonce, Path channel, String name, Object value) throws IOException {
        Path tmp = channel.resolve(name + ".json.tmp");
        JSON.writeValue(tmp.toFile(), value);
        Files.move(tmp, channel.resolve(name + ".json"), java.nio.file.StandardCopyOption.ATOMIC_MOVE);
        stdout.write((nonce + " " + name + "\n").getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        stdout.flush();
    }

    /** Reads and removes the announced file {@code channel/NAME.json} as {@code type}. */
    static <T> T receive(Path channel, String name, Class<T> type) throws IOException {
        Path f = channel.resolve(name + ".json");
        try {
            if (Files.size(f) > MAX_ANSWER) {
                throw new IOException("the runner's " + name + " is " + Files.size(f) + " bytes, over " + MAX_ANSWER);
            }
            return JSON.readValue(f.toFile(), type);
        } finally {
            Files.deleteIfExists(f);
        }
    }

    /** The runner's first line: the ONNX Runtime it loaded (null: none), the backends it serves, its versions. */
    record Hello(String ortVersion, List<String> backends, Map<String, String> runtimeVersions, String engineError) {
    }

    /**
     * A request: {@code probe} a backend, {@code execute} a case on it, or {@code exit}.
     *
     * @param id         answers carry it back
     * @param op         {@code probe}, {@code execute} or {@code exit}
     * @param backend    the backend's id
     * @param model      the model (execute)
     * @param inputs     the inputs, in the files named (execute)
     * @param freeDims   symbolic dimensions' values
     * @param precision  the case's precision
     * @param inputSet   the input set's name
     * @param warmups    warm-ups (at least)
     * @param iterations timed iterations (at least)
     * @param timeoutMs  the case's limit, or null
     * @param threads    intra-op threads, or null
     * @param loadTimeoutMs session creation's limit, or null
     * @param warmupMs   the least warm-up time
     * @param minMs      the least timed time
     * @param dir        where the outputs' files go (the inputs' folder)
     */
    record Request(long id, String op, String backend, ModelSpec model, List<TensorFile> inputs, Map<String, Long> freeDims,
                   String precision, String inputSet, int warmups, int iterations, Long timeoutMs, Integer threads,
                   Long loadTimeoutMs, long warmupMs, long minMs, String dir) {
    }

    /**
     * An answer: the probe's availability, or the execution's figures and output files, or the error it threw.
     *
     * @param id           the request's
     * @param availability a probe's answer
     * @param timings      an execution's timings
     * @param memory       its memory
     * @param provenance   its provenance, as the runner's provider made it
     * @param warnings     what the runtime warned about
     * @param outputs      its outputs, in the files named
     * @param error        what went wrong, or null
     */
    record Answer(long id, Availability availability, Timings timings, MemoryUsage memory, Provenance provenance,
                  List<String> warnings, List<TensorFile> outputs, Failure error) {
    }

    /**
     * A core exception as it crosses: its kind ({@code unavailable}, {@code unsupported}, {@code failed}), phase, text and
     * fix, and a refused load's diagnosis as a value (null when none), so the parent's row keeps it typed as this process's
     * would.
     */
    record Failure(String kind, String phase, String message, String fix, LoadDiagnosis diagnosis) {
        static Failure of(RuntimeException e) {
            if (e instanceof DiagnosedLoadException d) {
                return new Failure("failed", d.phase().name(), d.getMessage(), d.fix(), d.diagnosis());
            }
            if (e instanceof BackendException be) {
                String kind = be instanceof BackendUnavailableException ? "unavailable" : be instanceof UnsupportedModelException
                        ? "unsupported" : "failed";
                return new Failure(kind, be.phase().name(), be.getMessage(), be.fix(), null);
            }
            return new Failure("failed", Phase.RUN.name(), e.toString(), null, null);
        }

        /** The exception again, on the parent's side, saying where it happened. */
        BackendException toException(String where) {
            Phase p = Phase.valueOf(phase);
            return switch (kind) {
                case "unavailable" -> new BackendUnavailableException(message + where, fix);
                case "unsupported" -> new UnsupportedModelException(p, message + where, fix, null);
                default -> diagnosis != null ? new DiagnosedLoadException(message + where, diagnosis, null)
                        : new ExecutionFailedException(p, message + where, fix, null);
            };
        }
    }

    /** A tensor in a file of its raw bytes. */
    record TensorFile(String name, String dtype, long[] shape, String file) {
    }

    /** Writes {@code tensors} into {@code dir}, one file each, named by {@code prefix} and position. */
    static List<TensorFile> write(List<NamedTensor> tensors, Path dir, String prefix) throws IOException {
        List<TensorFile> out = new ArrayList<>();
        for (int i = 0; i < tensors.size(); i++) {
            NamedTensor t = tensors.get(i);
            Path f = dir.resolve(prefix + i + ".bin");
            Files.write(f, t.data());
            out.add(new TensorFile(t.name(), t.dtype().name(), t.shape(), f.toString()));
        }
        return out;
    }

    /** Reads tensors written by {@link #write}. */
    static List<NamedTensor> read(List<TensorFile> files) throws IOException {
        List<NamedTensor> out = new ArrayList<>();
        for (TensorFile f : files == null ? List.<TensorFile>of() : files) {
            out.add(new NamedTensor(f.name(), DType.valueOf(f.dtype()), f.shape(), Files.readAllBytes(Path.of(f.file()))));
        }
        return out;
    }
}
