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
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * Judges one observed session as a case is judged: every run recorded with its values replayed natively on the CPU with
 * the inputs the page fed, the page's outputs held to native's by the case tolerance of the backend it ran on and of its
 * graph's dtype, the session's status the worst of its runs; a run that failed in the page fails it. The one place both
 * ways in (a user's test, {@code accelbridge observe}) judge a session.
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
            return new ObservedVerdict.Failed(s, -1, s.error() != null ? s.error() : "onnxruntime-web refused its model or options");
        }
        for (int i = 0; i < s.runs().size(); i++) {
            Observed.Run r = s.runs().get(i);
            if (r.failed()) {
                return new ObservedVerdict.Failed(s, i, r.error() != null ? r.error() : "onnxruntime status " + r.code());
            }
        }
        List<Integer> replayable = new ArrayList<>();
        for (int i = 0; i < s.runs().size(); i++) {
            if (replayable(s.runs().get(i))) {
                replayable.add(i);
            }
        }
        if (replayable.isEmpty()) {
            return new ObservedVerdict.NotJudged(s, notReplayable(s));
        }
        Optional<byte[]> bytes = models.apply(s);
        if (bytes.isEmpty()) {
            return new ObservedVerdict.NotJudged(s, "its model was not kept (at most 64 MiB of models a page)");
        }
        Optional<BackendId> ran = s.backend();
        if (ran.isEmpty()) {
            return new ObservedVerdict.NotJudged(s, "a WebNN session on a device type Accelbridge does not know (" + s.providerOptions() + "), so its tolerance is not known");
        }
        BackendId backend = ran.get();
        try {
            Path dir = Files.createTempDirectory("accelbridge-observed");
            try {
                Path file = Files.write(dir.resolve("session-" + s.id() + ".onnx"), bytes.get());
                ModelSpec model = OnnxModels.inspect(file, ModelFamily.OTHER, "observed session " + s.id(), "observed in a page");
                // the session's dtype is its graph's: a variant is held to its own native run with the tolerance of its kind
                Precision precision = OnnxModels.precision(OnnxTensors.readModel(file));
                // every run kept with its values, each on native CPU with its own inputs; the worst is the session's
                int worst = -1;
                Parity worstParity = null;
                for (int i : replayable) {
                    Parity p = parity(s.runs().get(i), model, backend, precision, natives);
                    if (worstParity == null || worstParity.within() && !p.within()) {
                        worst = i;
                        worstParity = p;
                    }
                }
                return new ObservedVerdict.Judged(s, backend, precision, worstParity.within() ? Status.PASSED : Status.WRONG_OUTPUT,
                        worstParity, worst, replayable.size());
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

    /** A run native can replay: it ran, every input's values were kept, and at least one output came back to the CPU with its values. */
    static boolean replayable(Observed.Run r) {
        return r.code() != null && r.code() == 0 && r.inputs().stream().allMatch(t -> t.tensor().isPresent())
                && r.outputs().stream().anyMatch(t -> !t.onDevice() && t.tensor().isPresent());
    }

    private static String notReplayable(Observed.Session s) {
        List<Observed.Tensor> all = s.runs().stream().flatMap(r -> java.util.stream.Stream.concat(r.inputs().stream(), r.outputs().stream())).toList();
        if (s.runCount() == 0) {
            return "the page did not run it";
        }
        if (all.stream().anyMatch(Observed.Tensor::onDevice)) {
            return "its runs kept tensors on the GPU (IO binding): their values were not read, so no run can be replayed natively";
        }
        if (all.stream().anyMatch(Observed.Tensor::cut)) {
            return "its tensors were over the bound the observer keeps (1 MiB a tensor), so its run cannot be replayed";
        }
        return "no run of it was recorded with its inputs' and outputs' values (the first four runs are, up to 1 MiB a tensor)";
    }

    /** Run {@code r} on native CPU with its own inputs, its outputs that came back to the CPU held to native's. */
    private static Parity parity(Observed.Run r, ModelSpec model, BackendId backend, Precision precision, NativeProviders natives) {
        List<NamedTensor> inputs = r.inputs().stream().map(t -> t.tensor().orElseThrow()).toList();
        List<NamedTensor> page = r.outputs().stream().filter(t -> !t.onDevice()).map(Observed.Tensor::tensor)
                .flatMap(Optional::stream).toList();
        ModelCase mc = new ModelCase(model, "observed", inputs, Optional.empty());
        List<NamedTensor> reference = natives.forBackend(BackendId.CPU)
                .execute(new ExecutionRequest(BackendId.CPU, mc, 0, 1, Duration.ofMinutes(5))).outputs();
        List<NamedTensor> wanted = page.stream().map(p -> reference.stream().filter(t -> t.name().equals(p.name())).findFirst()
                .orElseThrow(() -> new AccelbridgeException("native CPU gave no output '" + p.name() + "'", null))).toList();
        return Parity.compare(wanted, page, dt -> Tolerance.defaults(backend, dt, precision), "native-cpu");
    }
}
