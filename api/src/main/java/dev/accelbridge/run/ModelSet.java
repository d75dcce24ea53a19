package dev.accelbridge.run;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.Limits;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.Status;
import dev.accelbridge.suites.Batching;
import dev.accelbridge.suites.ModelDirectory;
import dev.accelbridge.suites.ModelLoad;
import dev.accelbridge.suites.ModelSize;
import dev.accelbridge.suites.SuiteCatalog;
import dev.accelbridge.suites.SuiteException;
import dev.accelbridge.suites.SuiteOptions;
import dev.accelbridge.suites.precision.Variants;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The cases of a plan, made before anything runs: the suites' cases and every user model found under each
 * {@code --model} path, at each batch size and precision the plan asks for. A user model that cannot be read or fed
 * is kept as a {@link ModelLoad} with its problem, a variant that cannot be derived as a {@link Refused} (their rows
 * say so and the run goes on); a path that does not exist, or a {@code --input}/{@code --shape} naming an input no
 * model has, is bad input and refused here.
 *
 * @param cases   the cases to run, every fp32 case before the variants derived from it
 * @param broken  the user models with a problem
 * @param refused the cases that cannot be made (a variant the model cannot be converted to)
 * @param fp32Of  each variant (derived, or shipped beside its fp32 graph) → the fp32 case it is judged against (its reference)
 * @param notes   what the plan asked for that a model does not do, and why (fixed batch, shipped precision)
 */
@PublicApi
public record ModelSet(List<ModelCase> cases, List<ModelLoad> broken, List<Refused> refused, Map<ModelCase, ModelCase> fp32Of,
                       List<String> notes) {
    public ModelSet {
        cases = List.copyOf(cases);
        broken = List.copyOf(broken);
        refused = List.copyOf(refused);
        fp32Of = Map.copyOf(fp32Of);
        notes = List.copyOf(notes);
    }

    /** Plain cases: no variants, nothing refused. */
    public ModelSet(List<ModelCase> cases, List<ModelLoad> broken) {
        this(cases, broken, List.of(), Map.of(), List.of());
    }

    /**
     * A case that cannot be made, with why: every requested backend and lane gets its row with this status.
     *
     * @param fp32      the fp32 case it would have been derived from
     * @param precision the precision asked for
     * @param status    UNSUPPORTED for a conversion the model does not allow, FAILED for an I/O error
     * @param reason    the converter's message
     */
    public record Refused(ModelCase fp32, Precision precision, Status status, String reason) {
        /** Its identity on {@code backend} in {@code lane}. */
        public CaseId on(BackendId backend, LaneId lane) {
            CaseId b = CaseId.of(fp32, backend, lane);
            return new CaseId(b.family(), b.model(), null, b.inputSet(), b.inputShapes(), precision, b.batchSize(), backend, lane);
        }
    }

    /**
     * Loads the plan's models and makes their cases.
     *
     * @throws AccelbridgeException for bad input: a missing path, an input name no model has, nothing to run
     */
    public static ModelSet load(RunPlan plan) {
        List<ModelCase> base = new ArrayList<>();
        List<ModelLoad> broken = new ArrayList<>();
        if (!plan.workload().suites().isEmpty()) {
            SuiteCatalog catalog = SuiteCatalog.create(new SuiteOptions(plan.workload().modelCache(),
                    plan.workload().largeModels() ? ModelSize.LARGE : ModelSize.SMALL, plan.workload().seed()));
            Double given = plan.workload().feed().tolerance();
            for (ModelFamily f : plan.workload().suites()) {
                for (ModelCase mc : catalog.cases(f)) {
                    if (SuiteCatalog.onlyWhenNamed(mc) && !plan.workload().decodeSteps()) {
                        continue; // the decoder's single steps and optimized forms, the towers alone: when suites are named
                    }
                    // a suite's case is a pool of generated items: with no batch sizes asked for, it runs at batch 1 (a decoder's
                    // steps are authored at their batch: the padded batch of two is one of them; a two-tower model's images and
                    // captions are what its similarity matrix ranks)
                    ModelCase one = plan.workload().batchSizes().isEmpty() && f != ModelFamily.TEXT_GENERATION && f != ModelFamily.MULTIMODAL
                            ? Batching.atBatch(mc, 1).orElse(mc) : mc;
                    one = plan.workload().feed().generate().applyTo(one); // --prompt-tokens, --new-tokens
                    base.add(given == null ? one : withTolerance(one, given));
                }
            }
        }
        Set<String> inputNames = new LinkedHashSet<>();
        List<String> loadNotes = new ArrayList<>();
        for (Path p : plan.workload().userModels()) {
            for (ModelLoad m : ModelDirectory.loadAll(p, plan.workload().userFamily(), plan.workload().feed())) {
                if (m.broken()) {
                    broken.add(m);
                } else {
                    base.addAll(m.cases());
                }
                loadNotes.addAll(m.notes());
                inputNames.addAll(m.inputNames());
            }
        }
        Set<String> named = new LinkedHashSet<>(plan.workload().feed().inputs().keySet());
        named.addAll(plan.workload().feed().shapes().keySet());
        for (String n : named) {
            if (!inputNames.contains(n)) {
                throw new AccelbridgeException("--input/--shape " + n + " names no input of the models given (their inputs: "
                        + inputNames + ")", "use an input name of one of the models");
            }
        }
        if (base.isEmpty() && broken.isEmpty()) {
            throw new AccelbridgeException("Nothing to run: the suites and models given have no cases",
                    "give --suites text,vision,audio or --model PATH");
        }
        if (plan.workload().runtimeOptions().size() > 1 || !plan.workload().runtimeOptions().get(0).isDefault()) {
            // each case once per combination of session options (a backend they do not apply to runs it once: LaneScheduler)
            List<ModelCase> swept = new ArrayList<>();
            for (ModelCase mc : base) {
                plan.workload().runtimeOptions().forEach(o -> swept.add(mc.withRuntimeOptions(o)));
            }
            base = swept;
        }
        checkSize(base, plan.workload().batchSizes(), plan.workload().precisions());
        ModelSet made = expand(base, broken, plan.workload().batchSizes(), plan.workload().precisions(), new Variants(plan.workload().modelCache()));
        loadNotes.addAll(made.notes());
        ModelSet all = new ModelSet(made.cases(), made.broken(), made.refused(), made.fp32Of(), loadNotes);
        return plan.workload().shard().map(all::shard).orElse(all);
    }

    /**
     * This set's part {@code s}: its cases, broken models and refusals, each keyed by its model-and-input identity, cut
     * as {@link Shard#select} cuts. A variant whose fp32 case falls in another part keeps its link, so it is still judged
     * against that fp32 reference (computed here, not run as a case).
     */
    public ModelSet shard(Shard s) {
        List<Object> items = new ArrayList<>();
        items.addAll(cases);
        items.addAll(broken);
        items.addAll(refused);
        java.util.Set<Object> mine = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        mine.addAll(s.select(items, ModelSet::shardKey));
        Map<ModelCase, ModelCase> fp32 = new java.util.HashMap<>();
        fp32Of.forEach((k, v) -> {
            if (mine.contains(k)) {
                fp32.put(k, v);
            }
        });
        return new ModelSet(cases.stream().filter(mine::contains).toList(), broken.stream().filter(mine::contains).toList(),
                refused.stream().filter(mine::contains).toList(), fp32, notes);
    }

    private static String shardKey(Object o) {
        if (o instanceof ModelCase mc) {
            return CaseId.of(mc, BackendId.CPU, LaneId.NATIVE).inputKey();
        }
        if (o instanceof Refused r) {
            return r.on(BackendId.CPU, LaneId.NATIVE).inputKey();
        }
        ModelLoad m = (ModelLoad) o;
        return m.family().id() + "/" + m.name() + "@" + m.path();
    }

    /** Only the cases, broken models and refusals of the model called {@code name}; empty parts when none is. */
    public ModelSet only(String name) {
        java.util.function.Predicate<ModelCase> keep = mc -> mc.model().name().equals(name);
        Map<ModelCase, ModelCase> fp32 = new java.util.HashMap<>();
        fp32Of.forEach((k, v) -> {
            if (keep.test(v)) {
                fp32.put(k, v);
            }
        });
        return new ModelSet(cases.stream().filter(mc -> keep.test(mc) || fp32.containsKey(mc)).toList(),
                broken.stream().filter(b -> b.name().equals(name)).toList(), refused.stream().filter(r -> keep.test(r.fp32())).toList(),
                fp32, notes);
    }

    /** A suite case judged by the tolerance given on the command line ({@code --tolerance}). */
    static ModelCase withTolerance(ModelCase mc, double tolerance) {
        return new ModelCase(mc.model().withTolerance(tolerance), mc.inputSet(), mc.inputs(), mc.expected(), mc.freeDims(),
                mc.precision(), mc.replacedReference(), mc.scenario(), mc.runtimeOptions());
    }

    /**
     * Refuses, before any batch or variant is made (and so before the store is touched), a run whose cases or their
     * inputs would exceed {@link Limits#MAX_CASES} or {@link Limits#maxInputBytes()}: each option is within its own
     * bound, but their product is not (found when tried: 4,096 batch sizes ran out of heap in 13 s; with three
     * precisions 12,288 cases started without a word).
     */
    static void checkSize(List<ModelCase> base, List<Integer> batchSizes, List<Precision> precisions) {
        long perCase = Math.max(1, batchSizes.size()) * (long) precisions.size();
        long cases = base.size() * perCase;
        double bytes = 0;
        long sizes = batchSizes.stream().mapToLong(Integer::longValue).sum();
        for (ModelCase mc : base) {
            long shipped = mc.inputs().stream().mapToLong(t -> t.data().length).sum();
            bytes += (batchSizes.isEmpty() ? shipped : shipped / (double) Math.max(1, Batching.batchOf(mc)) * sizes) * precisions.size();
        }
        long max = Limits.maxInputBytes();
        if (cases > Limits.MAX_CASES || bytes > max) {
            throw new AccelbridgeException(String.format(java.util.Locale.ROOT,
                    "This run would make %,d cases (%,d models and inputs x %d batch sizes x %d precisions) holding %.1f MiB of "
                            + "inputs: above the %,d cases or %.1f MiB (a quarter of this JVM's heap) one run takes", cases, base.size(),
                    Math.max(1, batchSizes.size()), precisions.size(), bytes / (1 << 20), Limits.MAX_CASES, max / (double) (1 << 20)),
                    "ask for fewer --batch-sizes, --precision or --runtime-option values, or run the models in several runs");
        }
    }

    /** Every case at every batch size and precision asked for. */
    static ModelSet expand(List<ModelCase> base, List<ModelLoad> broken, List<Integer> batchSizes, List<Precision> precisions,
                           Variants variants) {
        List<ModelCase> fp32Cases = new ArrayList<>();
        List<ModelCase> derived = new ArrayList<>();
        List<Refused> refused = new ArrayList<>();
        Map<ModelCase, ModelCase> fp32Of = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        Map<ModelCase, Map<Precision, ModelCase>> shipped = ShippedVariants.of(base);
        java.util.Set<ModelCase> linked = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        shipped.values().forEach(m -> linked.addAll(m.values()));
        for (ModelCase mc : base) {
            if (linked.contains(mc)) {
                continue; // made with its fp32 sibling, at the same batch
            }
            Map<Precision, ModelCase> siblings = shipped.getOrDefault(mc, Map.of());
            List<ModelCase> batched;
            try {
                batched = batched(mc, batchSizes, notes);
            } catch (RuntimeException e) {
                // whatever a model's data does to batching or conversion is that model's rows, never the run's end
                String why = "feed: " + (e instanceof AccelbridgeException a ? a.oneLine() : e.toString()) + " (model "
                        + mc.model().path() + ")";
                java.util.Set<Precision> ps = new java.util.LinkedHashSet<>(precisions.contains(mc.precision())
                        || mc.precision() != Precision.FP32 ? List.of(mc.precision()) : precisions);
                ps.addAll(siblings.keySet());
                for (Precision p : ps) {
                    refused.add(new Refused(mc, p, Status.FAILED, why));
                }
                continue;
            }
            atPrecisions(batched, siblings, precisions, variants, new Made(fp32Cases, derived, refused, fp32Of, notes));
        }
        List<ModelCase> cases = new ArrayList<>(fp32Cases);
        cases.addAll(derived);
        return new ModelSet(cases, broken, refused, fp32Of, notes.stream().distinct().toList());
    }

    /** One case at every batch size asked for; none asked for: the case as fed. */
    private static List<ModelCase> batched(ModelCase mc, List<Integer> batchSizes, List<String> notes) {
        if (batchSizes.isEmpty()) {
            return List.of(mc);
        }
        List<ModelCase> batched = new ArrayList<>();
        for (int b : batchSizes) {
            Optional<ModelCase> at = Batching.atBatch(mc, b);
            if (at.isEmpty()) {
                if (batchSizes.size() > 1 || batchSizes.get(0) != Batching.batchOf(mc)) {
                    notes.add(mc.key() + " has a fixed batch of " + Batching.batchOf(mc) + ": it runs at that batch only");
                }
                return List.of(mc);
            }
            batched.add(at.get());
        }
        return batched;
    }

    /** What {@link #expand} makes, the lists its steps add to. */
    private record Made(List<ModelCase> fp32Cases, List<ModelCase> derived, List<Refused> refused, Map<ModelCase, ModelCase> fp32Of,
                        List<String> notes) {
    }

    /**
     * The batched cases at every precision asked for: a variant the folder ships ({@code siblings}) as shipped (every one
     * of them when the plan asks for fp32 alone, the default), any other derived from fp32.
     */
    private static void atPrecisions(List<ModelCase> batched, Map<Precision, ModelCase> siblings, List<Precision> precisions,
                                     Variants variants, Made made) {
        boolean asShipped = precisions.equals(List.of(Precision.FP32));
        for (ModelCase bc : batched) {
            if (bc.precision() != Precision.FP32) {
                if (!precisions.equals(List.of(bc.precision())) && !asShipped) {
                    made.notes().add(bc.key() + " is shipped at " + bc.precision().id() + ": it runs at " + bc.precision().id()
                            + " only and is not converted again");
                }
                made.fp32Cases().add(bc);
                continue;
            }
            if (precisions.contains(Precision.FP32)) {
                made.fp32Cases().add(bc);
            }
            for (Map.Entry<Precision, ModelCase> s : siblings.entrySet()) {
                if (asShipped || precisions.contains(s.getKey())) {
                    ModelCase v = Batching.atBatch(s.getValue(), Batching.batchOf(bc)).orElse(s.getValue());
                    made.derived().add(v);
                    made.fp32Of().put(v, bc);
                } else {
                    made.notes().add(bc.key() + " ships a " + s.getKey().id() + " variant too: not run (--precision does not name it)");
                }
            }
            for (Precision p : precisions) {
                if (p != Precision.FP32 && !siblings.containsKey(p)) {
                    derive(bc, p, variants, made);
                }
            }
        }
    }

    /** {@code bc}'s variant at {@code p}, derived, or refused with why. */
    private static void derive(ModelCase bc, Precision p, Variants variants, Made made) {
        try {
            ModelCase v = variants.derive(bc, p);
            made.derived().add(v);
            made.fp32Of().put(v, bc);
        } catch (SuiteException e) {
            made.refused().add(new Refused(bc, p, e instanceof SuiteException.CacheException ? Status.FAILED : Status.UNSUPPORTED,
                    e.oneLine()));
        } catch (RuntimeException e) {
            made.refused().add(new Refused(bc, p, Status.FAILED, "feed: the " + p.id() + " variant could not be made: " + e
                    + " (model " + bc.model().path() + ")"));
        }
    }
}
