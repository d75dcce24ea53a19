package dev.accelbridge.run;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.Limits;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.Status;
import dev.accelbridge.suites.Batching;
import dev.accelbridge.suites.ModelLoad;
import dev.accelbridge.suites.SuiteException;
import dev.accelbridge.suites.precision.Variants;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Every base case at each batch size and precision a plan asks for: batched, the variants a folder ships linked to their
 * fp32 case, other precisions derived or refused with why, after refusing a run too large to hold. {@link ModelSet}
 * gathers the base cases; this expands them.
 */
final class CaseExpansion {
    private CaseExpansion() {
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
        List<ModelSet.Refused> refused = new ArrayList<>();
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
                    refused.add(new ModelSet.Refused(mc, p, Status.FAILED, why));
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
    private record Made(List<ModelCase> fp32Cases, List<ModelCase> derived, List<ModelSet.Refused> refused, Map<ModelCase, ModelCase> fp32Of,
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
            made.refused().add(new ModelSet.Refused(bc, p, e instanceof SuiteException.CacheException ? Status.FAILED : Status.UNSUPPORTED,
                    e.oneLine()));
        } catch (RuntimeException e) {
            made.refused().add(new ModelSet.Refused(bc, p, Status.FAILED, "feed: the " + p.id() + " variant could not be made: " + e
                    + " (model " + bc.model().path() + ")"));
        }
    }
}
