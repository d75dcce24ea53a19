package dev.accelbridge.run;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.Status;
import dev.accelbridge.suites.Batching;
import dev.accelbridge.suites.ModelDirectory;
import dev.accelbridge.suites.ModelLoad;
import dev.accelbridge.suites.ModelSize;
import dev.accelbridge.suites.SuiteCatalog;
import dev.accelbridge.suites.SuiteOptions;
import dev.accelbridge.suites.precision.Variants;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
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
        SuiteCatalog catalog = SuiteCatalog.create(new SuiteOptions(plan.workload().modelCache(), plan.workload().size(),
                plan.workload().seed())); // writes nothing until a model is asked for
        if (!plan.workload().suites().isEmpty()) {
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
        if (plan.workload().sweep()) { // the width sweep's series, each point at batch 1
            for (ModelCase mc : catalog.sweepCases()) {
                base.add(Batching.atBatch(mc, 1).orElse(mc));
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
        CaseExpansion.checkSize(base, plan.workload().batchSizes(), plan.workload().precisions());
        ModelSet made = CaseExpansion.expand(base, broken, plan.workload().batchSizes(), plan.workload().precisions(), new Variants(plan.workload().modelCache()));
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
}
