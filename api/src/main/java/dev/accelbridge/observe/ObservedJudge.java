package dev.accelbridge.observe;

import dev.accelbridge.api.ObservedVerdict;
import dev.accelbridge.browser.observe.Observed;
import dev.accelbridge.browser.observe.PageObserver;
import dev.accelbridge.browser.observe.VisitReadings;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Bytes;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.Tolerance;
import dev.accelbridge.core.Untrusted;
import dev.accelbridge.run.NativeProviders;
import dev.accelbridge.suites.OnnxModels;
import dev.accelbridge.suites.onnx.OnnxTensors;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Judges one observed session as a case is judged: every run recorded with its values replayed natively on the CPU with
 * the inputs the page fed, the page's outputs held to native's by the case tolerance of the backend it ran on and of its
 * graph's dtype, the session's status the worst of its runs; a run that failed in the page fails it. The one place both
 * ways in (a user's test, {@code accelbridge observe}) judge a session ({@link #verdict}).
 */
public final class ObservedJudge {
    private ObservedJudge() {
    }

    /** The dtype a model's graph computes in, when its file was kept and reads as ONNX. */
    public static Optional<Precision> precision(Optional<Path> model) {
        if (model.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(OnnxModels.precision(OnnxTensors.readModel(model.get())));
        } catch (RuntimeException e) {
            return Optional.empty();
        }
    }

    /** A session's model as the judge is given it: kept on disk, or not, and why. */
    public sealed interface Model permits Model.Kept, Model.NotKept {
        /** Kept on disk (its external data as far as it was). */
        record Kept(PageObserver.KeptModel model) implements Model {
        }

        /** Not kept, and why in words. */
        record NotKept(String why) implements Model {
        }

        /** The model kept, if it was. */
        default Optional<PageObserver.KeptModel> kept() {
            return this instanceof Kept k ? Optional.of(k.model()) : Optional.empty();
        }

        /** {@code kept} where present, else not kept for {@code why}. */
        static Model of(Optional<PageObserver.KeptModel> kept, java.util.function.Supplier<NotKept> why) {
            return kept.<Model>map(Kept::new).orElseGet(why);
        }

        /**
         * Session {@code s}'s model as a visit's document {@code d} holds it: kept; not kept for the budget {@code keep} (the
         * page held no copy for the reader, or the visit's budget had no room); else let go by the page before the reader
         * had it.
         */
        static Model of(VisitReadings.Document d, Observed.Session s, long keep) {
            return of(Optional.ofNullable(d.models().get(s.id())), () -> d.overBudget().contains(s.id()) ? overBudget(s, keep) : letGo(s));
        }

        /** Not kept: the budget {@code keep} had no room for it (the page held no copy for the reader, or the visit's was spent). */
        static NotKept overBudget(Observed.Session s, long keep) {
            return new NotKept("its model (" + size(s) + ") was not kept: the visit keeps at most " + Bytes.iec(keep)
                    + " of models on disk (--keep)");
        }

        /**
         * Not kept, within the budget: the page let its copy go before the reader had it (found when tried: a page that
         * released its session and left at once read as not kept "within the budget" though the page left first).
         */
        static NotKept letGo(Observed.Session s) {
            return new NotKept("its model (" + size(s) + ") was not kept: the page let it go (it left the document, or the realm "
                    + "ended) before the reader had it, within the budget");
        }

        private static String size(Observed.Session s) {
            long external = s.externalBytes();
            return Bytes.iec(s.byteLength()) + (external > 0 ? ", with " + Bytes.iec(external) + " of external data" : "");
        }
    }

    /**
     * The verdict of session {@code s}, the same on every route (the command line, a user's test): judged against native
     * CPU ({@link #judge(Observed.Session, Model, Function, NativeProviders, Optional)}), then, where wrong, bisected on its
     * own lane through {@code replayer} and settled by that bisection ({@link ObservedBisections#bisect}).
     */
    public static ObservedVerdict verdict(Observed.Session s, Model model, Function<Observed.Tensor, Optional<NamedTensor>> values,
                                   NativeProviders natives, Optional<Instant> deadline, ObservedBisections.Replayer replayer) {
        ObservedVerdict v = judge(s, model, values, natives, deadline);
        return ObservedBisections.bisect(v, model.kept().map(PageObserver.KeptModel::file), values, replayer, deadline);
    }

    /** The longest one native replay of a run may take. */
    public static final Duration RUN_LIMIT = Duration.ofMinutes(5);

    /**
     * Judges session {@code s}, its model file (kept on disk, named by its sha256) as {@code model} says, every native
     * replay done by {@code deadline} where one is given (found when tried: a model whose native run never ended held
     * {@code observe --timeout 15} past 100 s, each replay given its five minutes): a session whose replay would run past
     * it is not judged, and says so. Each run's native replay within {@link #RUN_LIMIT}.
     */
    public static ObservedVerdict judge(Observed.Session s, Model model, Function<Observed.Tensor, Optional<NamedTensor>> values,
                                 NativeProviders natives, Optional<Instant> deadline) {
        if (!s.created()) {
            return new ObservedVerdict.Failed(s, -1, s.error() != null ? s.error() : "onnxruntime-web refused its model or options");
        }
        for (int i = 0; i < s.runs().size(); i++) {
            Observed.Run r = s.runs().get(i);
            if (r.failed()) {
                return new ObservedVerdict.Failed(s, i, r.error() != null ? r.error() : "onnxruntime status " + r.code());
            }
        }
        if (s.runs().stream().noneMatch(ObservedJudge::comparable)) {
            return new ObservedVerdict.NotJudged(s, notReplayable(s));
        }
        if (model instanceof Model.NotKept n) {
            return new ObservedVerdict.NotJudged(s, n.why());
        }
        Optional<PageObserver.KeptModel> kept = model.kept();
        if (!kept.get().missing().isEmpty()) {
            return new ObservedVerdict.NotJudged(s, "its external data was not all kept, so native cannot load it: "
                    + String.join("; ", kept.get().missing()));
        }
        Optional<Path> file = kept.map(PageObserver.KeptModel::file);
        Optional<BackendId> ran = s.backend();
        if (ran.isEmpty()) {
            return new ObservedVerdict.NotJudged(s, "a WebNN session on a device type Accelbridge does not know (" + s.providerOptions() + "), so its tolerance is not known");
        }
        BackendId backend = ran.get();
        try {
            ModelSpec spec = OnnxModels.inspect(file.get(), ModelFamily.OTHER, "observed session " + s.id(), "observed in a page");
            // the session's dtype is its graph's: a variant is held to its own native run with the tolerance of its kind
            Precision precision = OnnxModels.precision(OnnxTensors.readModel(file.get()));
            // every run kept with its values, on native CPU with its own inputs, in order; the worst is the session's
            Replay replay = replay(s, spec, backend, precision, values, natives, deadline);
            if (replay.judged() == 0) {
                return new ObservedVerdict.NotJudged(s, notReplayable(s));
            }
            return new ObservedVerdict.Judged(s, backend, precision, replay.worst().within() ? Status.PASSED : Status.WRONG_OUTPUT,
                    replay.worst(), replay.run(), replay.judged());
        } catch (OutOfTime e) {
            return new ObservedVerdict.NotJudged(s, "the visit's time (--timeout) ran out before native CPU had replayed its runs");
        } catch (AccelbridgeException e) {
            return new ObservedVerdict.NotJudged(s, "native CPU could not run it: " + e.getMessage());
        } catch (RuntimeException e) { // what the page said of its tensors, or its model's bytes, a stranger's: its row says so
            return new ObservedVerdict.NotJudged(s, "its model or the tensors the page reported could not be judged: "
                    + Untrusted.bounded(Untrusted.oneLine(String.valueOf(e.getMessage())), 300));
        }
    }

    /**
     * A run with something to compare: it ran, and at least one output came back to the CPU with its values (returned so,
     * or kept on the GPU and read back by the app).
     */
    public static boolean comparable(Observed.Run r) {
        return r.code() != null && r.code() == 0 && r.outputs().stream().anyMatch(Observed.Tensor::hasValues);
    }

    /** The replays ran past the visit's deadline. */
    private static final class OutOfTime extends RuntimeException {
        OutOfTime() {
            super(null, null, false, false);
        }
    }

    /** What the replay found: the worst parity, the run it is of, how many runs were compared. */
    private record Replay(Parity worst, int run, int judged) {
    }

    /**
     * Replays the session's runs in order on native CPU. A run's inputs are the app's own; an input the app kept on the GPU
     * (a decoder's past keys and values under IO binding) is native's own output of the run and name the observer followed
     * its GPU buffer to ({@link Observed.Tensor#from}), whatever it is named: the app's loop replayed with its own per-step
     * ids, masks and positions, each step's outputs that came back to the CPU held to native's. A run that cannot be fed (an
     * input with neither its values nor a known origin in this session) is not judged; the runs after it are, where they
     * can be fed.
     */
    private static Replay replay(Observed.Session s, ModelSpec model, BackendId backend, Precision precision,
                                 Function<Observed.Tensor, Optional<NamedTensor>> values, NativeProviders natives,
                                 Optional<Instant> deadline) {
        Parity worst = null;
        int worstRun = -1;
        int judged = 0;
        // native's outputs of the runs a later run was fed from on the GPU, by run, each kept until its last such use
        Map<Integer, Integer> lastUse = new HashMap<>();
        for (int i = 0; i < s.runs().size(); i++) {
            int at = i;
            s.runs().get(i).inputs().stream().map(Observed.Tensor::from).filter(o -> o != null && o.session() == s.id())
                    .forEach(o -> lastUse.merge(o.run(), at, Math::max));
        }
        Map<Integer, List<NamedTensor>> fed = new HashMap<>();
        for (int i = 0; i < s.runs().size(); i++) {
            Observed.Run r = s.runs().get(i);
            int at = i;
            Optional<List<NamedTensor>> inputs = r.failed() ? Optional.empty() : inputs(s, r, fed, values);
            fed.keySet().removeIf(k -> lastUse.get(k) <= at);
            if (inputs.isEmpty()) {
                continue;
            }
            ModelCase mc = new ModelCase(model, "observed", inputs.get(), Optional.empty());
            Duration limit = deadline.map(d -> Duration.between(Instant.now(), d)).filter(d -> d.compareTo(RUN_LIMIT) < 0)
                    .orElse(RUN_LIMIT);
            if (limit.toMillis() < 1) {
                throw new OutOfTime();
            }
            List<NamedTensor> reference;
            try {
                reference = natives.forBackend(BackendId.CPU).execute(new ExecutionRequest(BackendId.CPU, mc, 0, 1, limit)).outputs();
            } catch (AccelbridgeException e) {
                if (deadline.isPresent() && !Instant.now().isBefore(deadline.get())) {
                    throw new OutOfTime();
                }
                throw e;
            }
            if (lastUse.getOrDefault(i, -1) > i) {
                fed.put(i, reference);
            }
            List<NamedTensor> page = r.outputs().stream().filter(Observed.Tensor::hasValues).map(values).flatMap(Optional::stream).toList();
            if (page.isEmpty()) {
                continue;
            }
            List<NamedTensor> wanted = page.stream().map(p -> reference.stream().filter(t -> t.name().equals(p.name())).findFirst()
                    .orElseThrow(() -> new AccelbridgeException("native CPU gave no output '" + p.name() + "'", null))).toList();
            Parity p = Parity.compare(wanted, page, dt -> Tolerance.defaults(backend, dt, precision), "native-cpu");
            judged++;
            if (worst == null || worst.within() && !p.within()) {
                worst = p;
                worstRun = i;
            }
        }
        return new Replay(worst, worstRun, judged);
    }

    /**
     * A run's inputs: its own values; an input kept on the GPU, native's output of the run and name it was followed to in
     * this session (replayed before it); empty when one is neither.
     */
    private static Optional<List<NamedTensor>> inputs(Observed.Session s, Observed.Run r, Map<Integer, List<NamedTensor>> natives,
                                                      Function<Observed.Tensor, Optional<NamedTensor>> values) {
        List<NamedTensor> out = new ArrayList<>();
        for (Observed.Tensor t : r.inputs()) {
            Optional<NamedTensor> own = values.apply(t);
            if (own.isPresent()) {
                out.add(own.get());
                continue;
            }
            Observed.Origin o = t.from();
            if (!t.onDevice() || o == null || o.session() != s.id() || t.name() == null || !natives.containsKey(o.run())) {
                return Optional.empty();
            }
            Optional<NamedTensor> from = natives.get(o.run()).stream().filter(b -> b.name().equals(o.output())).findFirst();
            if (from.isEmpty()) {
                return Optional.empty();
            }
            out.add(from.get().withName(t.name()));
        }
        return Optional.of(out);
    }

    private static String notReplayable(Observed.Session s) {
        List<Observed.Tensor> all = s.runs().stream().flatMap(r -> java.util.stream.Stream.concat(r.inputs().stream(), r.outputs().stream())).toList();
        if (s.runCount() == 0) {
            return "the page did not run it";
        }
        if (all.stream().anyMatch(t -> t.values() != null && t.tensor().isEmpty())) {
            return "the page reported tensors Accelbridge cannot hold (an element type it does not know, a shape that cannot be, "
                    + "or values not of the shape's size), so no run can be replayed natively";
        }
        if (all.stream().anyMatch(t -> t.onDevice() && !t.hasValues())) {
            return "its runs kept tensors on the GPU (IO binding) that the app did not read back, and fed it none the observer could "
                    + "follow to an output of this session: their values were not read, so no run can be replayed natively";
        }
        if (all.stream().anyMatch(Observed.Tensor::cut)) {
            return "its tensors were over the bound the observer keeps (the visit's budget, --keep, past its models), so its run cannot be replayed";
        }
        if (all.stream().anyMatch(t -> t.held() != null)) {
            return "its tensors over 1 MiB were held in the page and not all written to disk (the page went first, or the budget, --keep, ran out)";
        }
        return "no run of it was recorded with its inputs' and outputs' values (a realm keeps " + Bytes.iec(PageObserver.VALUE_BYTES)
                + " of values, past it runs spread evenly over each session)";
    }

}
