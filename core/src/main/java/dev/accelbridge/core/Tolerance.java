package dev.accelbridge.core;

import java.util.Locale;

/**
 * How far an output element may be from the reference, in the manner of onnxruntime-web's own test runner: an
 * element passes when {@code |actual − reference| ≤ atol}, or when both have the same sign and
 * {@code max(|a|, |r|) / min(|a|, |r|) ≤ 1 + rtol}. A NaN equals a NaN; integer and bool outputs must be exact.
 *
 * <p>Defaults per backend and output type ({@link #defaults}), from onnxruntime-web's test runner
 * ({@code js/web/test/test-runner.ts}): CPU and wasm abs 1e-4 / rel 1e-6; WebGPU (and the other GPU-class providers,
 * WebNN, native GPU EPs) abs 1e-3 / rel 1e-5; half precision abs 0.1 / rel 2 % (also used for quantized
 * models). A tolerance given for a model ({@code --tolerance}, its folder's {@code accelbridge.json}) replaces the
 * absolute bound.
 *
 * @param atol  absolute bound
 * @param rtol  relative bound (the ratio's excess over 1)
 * @param basis where the figures come from, as the result reports it
 */
public record Tolerance(double atol, double rtol, String basis) {
    /** Integer and bool outputs. */
    public static final Tolerance EXACT = new Tolerance(0, 0, "exact (integer or bool output)");

    /** The default for an output of {@code dtype} computed by {@code backend} for a model of {@code precision}. */
    public static Tolerance defaults(BackendId backend, DType dtype, Precision precision) {
        if (!dtype.isFloat()) {
            return EXACT;
        }
        if (dtype == DType.FLOAT16 || precision.lossy()) {
            return new Tolerance(0.1, 0.02, "half precision or quantized: abs 0.1, rel 2%");
        }
        if (backend == null || backend == BackendId.CPU || backend == BackendId.WASM) {
            return new Tolerance(1e-4, 1e-6, (backend == null ? "cpu" : backend.id()) + ": abs 1e-4, rel 1e-6");
        }
        return new Tolerance(1e-3, 1e-5, backend.id() + ": abs 1e-3, rel 1e-5");
    }

    /** {@code atol} given for the model, with the default's relative bound; integer outputs stay exact. */
    public static Tolerance given(double atol, BackendId backend, DType dtype, Precision precision) {
        Tolerance d = defaults(backend, dtype, precision);
        // a bound tighter than the default relative one tightens that too: --tolerance 1e-9 means below float32 noise
        double rtol = Math.min(d.rtol(), atol);
        return d == EXACT ? EXACT : new Tolerance(atol, rtol, String.format(Locale.ROOT, "given: abs %.3g, rel %.3g", atol, rtol));
    }

    /**
     * How much of the budget one element uses: 0 for equal, 1 at the edge, above 1 outside (the more lenient of the
     * absolute and the relative reading); infinite for a non-finite mismatch.
     */
    public double used(double reference, double actual) {
        if (Double.isNaN(reference) && Double.isNaN(actual)) {
            return 0;
        }
        if (!Double.isFinite(reference) || !Double.isFinite(actual)) {
            return reference == actual ? 0 : Double.POSITIVE_INFINITY;
        }
        double d = Math.abs(actual - reference);
        if (d == 0) {
            return 0;
        }
        double abs = atol > 0 ? d / atol : Double.POSITIVE_INFINITY;
        double rel = Double.POSITIVE_INFINITY;
        if (rtol > 0 && Math.signum(actual) == Math.signum(reference) && reference != 0 && actual != 0) {
            double ratio = Math.max(Math.abs(actual), Math.abs(reference)) / Math.min(Math.abs(actual), Math.abs(reference));
            rel = (ratio - 1) / rtol;
        }
        return Math.min(abs, rel);
    }

    /** True when {@code actual} passes against {@code reference}. */
    public boolean accepts(double reference, double actual) {
        return used(reference, actual) <= 1;
    }

    /** "abs 1e-04, rel 1e-06 (wasm: abs 1e-4, rel 1e-6)". */
    @Override
    public String toString() {
        return basis;
    }
}
