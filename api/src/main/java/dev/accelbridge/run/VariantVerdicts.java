package dev.accelbridge.run;

import dev.accelbridge.core.Fidelity;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;

import java.util.Optional;

/**
 * What a dtype variant's result says, in one place: its verdict (the backend against the same file's native CPU run) and,
 * beside it, its fidelity (its designed loss against fp32 native). A variant's own native run is its reference, so the
 * run itself is never WRONG_OUTPUT for the dtype's loss; a backend is wrong only where it differs from that run.
 */
final class VariantVerdicts {
    private VariantVerdicts() {
    }

    /**
     * {@code r} with its reason saying both, when it is a variant compared with fp32 native; else {@code r} unchanged.
     *
     * @param itself {@code r} is the variant's own native CPU run (its reference)
     */
    static RunResult said(RunResult r, boolean itself) {
        Optional<Fidelity> f = r.fidelity();
        if (f.isEmpty() || r.actual().isEmpty()) {
            return r;
        }
        String precision = r.id().precision().id();
        String reason = r.reason();
        Parity own = r.variantParity();
        if (r.status() == Status.WRONG_OUTPUT && own != null && !own.within()) {
            reason = join("this backend gets the " + precision + " variant wrong: it differs from the variant's own native CPU run ("
                    + own.describe() + ")", reason);
        } else if (own != null && r.status().executed()) {
            reason = join(reason, "computed as the " + precision + " variant's own native CPU run computes it (" + own.describe() + ")");
        } else if (itself) {
            reason = join(reason, "the " + precision + " variant's own native CPU run: its reference");
        } else if (own == null && r.status().executed()) {
            // found when tried: a generation variant whose generations differ in count from its native run's lost this silently
            reason = join(reason, "its outputs could not be compared with the " + precision + " variant's own native CPU run (another "
                    + "form or count): the verdict rests on fp32 native");
        }
        return r.withStatus(r.status(), join(reason, f.get().describe()));
    }

    private static String join(String a, String b) {
        return a == null || a.isEmpty() ? b : b == null || b.isEmpty() ? a : a + "; " + b;
    }
}
