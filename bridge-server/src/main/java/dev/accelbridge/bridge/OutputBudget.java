package dev.accelbridge.bridge;

import dev.accelbridge.core.Limits;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.TensorSpec;

import java.util.Locale;

/**
 * How many bytes a run job's outputs may total when they cross from the page: the model's declared outputs when every
 * dimension is known (what the model says it computes, at the case's free-dimension values), else the bridge's cap
 * ({@code --max-result-mb}). One fixed frame limit no longer decides what a model may return.
 *
 * @param bytes the budget
 * @param basis where it comes from, for a refusal's reason
 */
@PublicApi
public record OutputBudget(long bytes, String basis) {
    /** The default cap for outputs whose size the model does not declare (2 GiB). */
    public static final long DEFAULT_CAP = Limits.DEFAULT_RESULT_BYTES;
    private static final long SLACK = 1L << 20;

    /** A budget of exactly {@code bytes}. */
    public static OutputBudget of(long bytes, String basis) {
        return new OutputBudget(bytes, basis);
    }

    /** No limit but the cap. */
    public static OutputBudget cap(long cap) {
        return new OutputBudget(cap, capBasis(cap));
    }

    /**
     * The budget of {@code mc}'s outputs: their declared sizes when all are concrete (an output with a symbolic or
     * unknown dimension, or none declared, makes it the cap), never above the cap.
     */
    public static OutputBudget forCase(ModelCase mc, long cap) {
        long total = 0;
        for (TensorSpec s : mc.model().outputs()) {
            long n = s.dtype() == null ? -1 : s.dtype().byteSize();
            for (long d : s.shape()) {
                if (d < 0 || n < 0) {
                    n = -1;
                    break;
                }
                n = Math.multiplyHigh(n, d) != 0 ? Long.MAX_VALUE : n * d;
            }
            if (n < 0) {
                return cap(cap);
            }
            total = total > Long.MAX_VALUE - n ? Long.MAX_VALUE : total + n;
        }
        if (mc.model().outputs().isEmpty() || total > cap) {
            return cap(cap);
        }
        // a little room over the declared bytes: a declared shape is what the model promises, not a frame to fill exactly
        return new OutputBudget(total + SLACK, String.format(Locale.ROOT, "the %,d bytes its %d outputs declare, plus 1 MiB", total,
                mc.model().outputs().size()));
    }

    /** Why {@code total} bytes of outputs are refused, or null when they are within this budget. */
    public String exceededBy(long total) {
        return total <= bytes ? null : String.format(Locale.ROOT,
                "the page's outputs total %,d bytes, above this job's budget of %,d bytes (%s)", total, bytes, basis);
    }

    private static String capBasis(long cap) {
        return String.format(Locale.ROOT, "--max-result-mb %d; raise it for models whose outputs are larger", cap >> 20);
    }
}
