package dev.accelbridge.api;

import dev.accelbridge.browser.observe.Observed;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.Tolerance;
import dev.accelbridge.run.NativeProviders;
import dev.accelbridge.suites.OnnxModels;
import dev.accelbridge.suites.onnx.OnnxTensors;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Judges one observed session as a case is judged: its model run natively on the CPU with the inputs the page fed (its
 * first run recorded with values), the page's outputs held to native's by the case tolerance of the backend it ran on
 * and of its graph's dtype. The one place both ways in (a user's test, {@code accelbridge observe}) judge a session.
 */
final class ObservedJudge {
    private ObservedJudge() {
    }

    /** The dtype a model's graph computes in, when its bytes were kept and read as ONNX. */
    static Optional<Precision> precision(Optional<byte[]> model) {
        if (model.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(OnnxModels.precision(dev.accelbridge.suites.onnx.proto.Onnx.ModelProto.parseFrom(model.get())));
        } catch (com.google.protobuf.InvalidProtocolBufferException | RuntimeException e) {
            return Optional.empty();
        }
    }

    static ObservedVerdict judge(Observed.Session s, Function<Observed.Session, Optional<byte[]>> models, NativeProviders natives) {
        if (!s.created()) {
            return new ObservedVerdict.NotJudged(s, "onnxruntime-web did not make the session");
        }
        int index = -1;
        for (int i = 0; i < s.runs().size() && index < 0; i++) {
            Observed.Run r = s.runs().get(i);
            if (r.code() != null && r.code() == 0 && !r.outputs().isEmpty() && r.inputs().stream().allMatch(t -> t.tensor().isPresent())
                    && r.outputs().stream().allMatch(t -> t.tensor().isPresent())) {
                index = i;
            }
        }
        if (index < 0) {
            boolean cut = s.runs().stream().flatMap(r -> java.util.stream.Stream.concat(r.inputs().stream(), r.outputs().stream()))
                    .anyMatch(Observed.Tensor::cut);
            return new ObservedVerdict.NotJudged(s, s.runCount() == 0 ? "the page did not run it"
                    : cut ? "its tensors were over the bound the observer keeps (1 MiB a tensor), so its run cannot be replayed"
                    : "no run of it was recorded with its inputs' and outputs' values (the first four runs are, up to 1 MiB a tensor)");
        }
        Optional<byte[]> bytes = models.apply(s);
        if (bytes.isEmpty()) {
            return new ObservedVerdict.NotJudged(s, "its model was not kept (at most 64 MiB of models a page)");
        }
        Optional<BackendId> ran = s.backend();
        if (ran.isEmpty()) {
            return new ObservedVerdict.NotJudged(s, "a WebNN session on a device type Accelbridge does not know (" + s.providerOptions() + "), so its tolerance is not known");
        }
        Observed.Run run = s.runs().get(index);
        List<NamedTensor> inputs = run.inputs().stream().map(t -> t.tensor().orElseThrow()).toList();
        List<NamedTensor> page = run.outputs().stream().map(t -> t.tensor().orElseThrow()).toList();
        BackendId backend = ran.get();
        try {
            Path dir = Files.createTempDirectory("accelbridge-observed");
            try {
                Path file = Files.write(dir.resolve("session-" + s.id() + ".onnx"), bytes.get());
                ModelSpec model = OnnxModels.inspect(file, ModelFamily.OTHER, "observed session " + s.id(), "observed in a page");
                // the session's dtype is its graph's: a variant is held to its own native run with the tolerance of its kind
                Precision precision = OnnxModels.precision(OnnxTensors.readModel(file));
                ModelCase mc = new ModelCase(model, "observed", inputs, Optional.empty());
                List<NamedTensor> reference = natives.forBackend(BackendId.CPU)
                        .execute(new ExecutionRequest(BackendId.CPU, mc, 0, 1, Duration.ofMinutes(5))).outputs();
                List<NamedTensor> wanted = page.stream().map(p -> reference.stream().filter(t -> t.name().equals(p.name())).findFirst()
                        .orElseThrow(() -> new AccelbridgeException("native CPU gave no output '" + p.name() + "'", null))).toList();
                Parity parity = Parity.compare(wanted, page, dt -> Tolerance.defaults(backend, dt, precision), "native-cpu");
                return new ObservedVerdict.Judged(s, backend, precision, parity.within() ? Status.PASSED : Status.WRONG_OUTPUT, parity, index);
            } finally {
                try (var files = Files.walk(dir)) {
                    files.sorted(java.util.Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
                }
            }
        } catch (AccelbridgeException e) {
            return new ObservedVerdict.NotJudged(s, "native CPU could not run it: " + e.getMessage());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
