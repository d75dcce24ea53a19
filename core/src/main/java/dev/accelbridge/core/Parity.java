package dev.accelbridge.core;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.function.Function;

/**
 * How far a backend's outputs are from the reference (native CPU, or the expected outputs shipped with a model), over
 * all outputs together, and whether they pass the {@link Tolerance} each output was judged by. The figures never
 * contradict each other: when any element is non-finite on one side only, {@code maxAbsErr} and {@code maxRelErr} are
 * infinite, {@code cosine} is NaN (undefined) and {@code within} is false. A NaN on both sides counts as equal.
 *
 * @param maxAbsErr max |actual - reference|
 * @param maxRelErr max |actual - reference| / |reference| over elements with |reference| &gt; 1e-3 (0 when none)
 * @param cosine    cosine similarity of the flattened outputs (1 when both are all zero; NaN when non-finite)
 * @param tolerance the absolute bound of the tolerance applied (of the float outputs; 0 when all are exact)
 * @param within    true when every element of every output passes its tolerance, nothing is non-finite on one side only
 * @param against   what the reference was: {@code native-cpu} or {@code expected-outputs}
 * @param nonFinite elements that are non-finite on one side only
 * @param rtol      the relative bound of the tolerance applied
 * @param budget    the largest share of its tolerance any element used (≤ 1 passes; see {@link Tolerance#used})
 * @param basis     which tolerance the outputs were judged by, as a sentence
 */
public record Parity(double maxAbsErr, double maxRelErr, double cosine, double tolerance, boolean within, String against,
                     long nonFinite, double rtol, double budget, String basis) {

    /** What a variant's comparison with the fp32 model's native CPU run appends to its basis ({@code native-cpu fp32}). */
    public static final String FP32_BASIS = " fp32";

    /** Whether this compares with the fp32 model's reference (a dtype variant's designed loss), not the same file's. */
    public boolean againstFp32() {
        return against != null && against.contains(FP32_BASIS);
    }

    /** A parity judged by an absolute tolerance alone (as stored before tolerances had a relative part). */
    public Parity(double maxAbsErr, double maxRelErr, double cosine, double tolerance, boolean within, String against) {
        this(maxAbsErr, maxRelErr, cosine, tolerance, within, against, 0);
    }

    /** Same, with the count of non-finite mismatches. */
    public Parity(double maxAbsErr, double maxRelErr, double cosine, double tolerance, boolean within, String against,
                  long nonFinite) {
        this(maxAbsErr, maxRelErr, cosine, tolerance, within, against, nonFinite, 0,
                tolerance > 0 ? maxAbsErr / tolerance : (maxAbsErr == 0 ? 0 : Double.POSITIVE_INFINITY), null);
    }

    /** Compares with one absolute tolerance for every float output (integer outputs exact; NaN: the CPU defaults). */
    public static Parity compare(List<NamedTensor> reference, List<NamedTensor> actual, double atol, String against) {
        return compare(reference, actual, dt -> Double.isNaN(atol) ? Tolerance.defaults(BackendId.CPU, dt, Precision.FP32)
                : dt.isFloat() ? new Tolerance(atol, 0, "abs " + atol) : Tolerance.EXACT, against);
    }

    /**
     * Compares outputs pairwise by name (falling back to position when names differ, as a browser may report them in
     * its own order), each against the tolerance for its element type.
     *
     * @throws AccelbridgeException when counts, element types or shapes differ (a mismatch of form is itself a
     *                              finding, reported as such by the caller)
     */
    public static Parity compare(List<NamedTensor> reference, List<NamedTensor> actual, Function<DType, Tolerance> toleranceFor,
                                 String against) {
        if (reference.size() != actual.size()) {
            throw new AccelbridgeException("Output count differs: reference has " + reference.size() + ", backend gave "
                    + actual.size(), null);
        }
        double maxAbs = 0;
        double maxRel = 0;
        double dot = 0;
        double na = 0;
        double nb = 0;
        double budget = 0;
        long nonFinite = 0;
        Tolerance shown = null;
        for (int k = 0; k < reference.size(); k++) {
            NamedTensor r = reference.get(k);
            NamedTensor a = counterpart(r, actual, k);
            long rn = sameForm(r, a);
            Tolerance tol = toleranceFor.apply(r.dtype());
            if (shown == null || (tol != Tolerance.EXACT && shown == Tolerance.EXACT)) {
                shown = tol;
            }
            // streamed element by element: no widened copy of either side (an output may be hundreds of MB); the running
            // figures stay this method's locals, accumulated output after output in element order
            java.nio.ByteBuffer rb = r.buffer();
            java.nio.ByteBuffer ab = a.buffer();
            for (int i = 0; i < (int) rn; i++) {
                double x = NamedTensor.valueAt(rb, r.dtype(), i);
                double y = NamedTensor.valueAt(ab, a.dtype(), i);
                double u = tol.used(x, y);
                if (!Double.isFinite(x) || !Double.isFinite(y)) {
                    if (u > 0) {
                        nonFinite++;
                    }
                    continue;
                }
                budget = Math.max(budget, u);
                double d = Math.abs(x - y);
                maxAbs = Math.max(maxAbs, d);
                if (Math.abs(x) > 1e-3) {
                    maxRel = Math.max(maxRel, d / Math.abs(x));
                }
                dot += x * y;
                na += x * x;
                nb += y * y;
            }
        }
        Tolerance t = shown == null ? Tolerance.EXACT : shown;
        if (nonFinite > 0) {
            return new Parity(Double.POSITIVE_INFINITY, Double.POSITIVE_INFINITY, Double.NaN, t.atol(), false, against, nonFinite,
                    t.rtol(), Double.POSITIVE_INFINITY, t.basis());
        }
        double cos = (na == 0 && nb == 0) ? 1.0 : (na == 0 || nb == 0) ? 0.0 : dot / Math.sqrt(na * nb);
        return new Parity(maxAbs, maxRel, cos, t.atol(), budget <= 1, against, 0, t.rtol(), budget, t.basis());
    }

    /** The actual output of {@code r}'s name, else the one at its position (a browser may name them its own way). */
    private static NamedTensor counterpart(NamedTensor r, List<NamedTensor> actual, int k) {
        return actual.stream().filter(t -> t.name().equals(r.name())).findFirst().orElse(actual.get(k));
    }

    /**
     * The element count {@code r} and {@code a} share, once their counts, shapes and element types are found equal.
     *
     * @throws AccelbridgeException at the first of these that differs
     */
    private static long sameForm(NamedTensor r, NamedTensor a) {
        long rn = r.size();
        long an = a.size();
        if (rn != an) {
            throw new AccelbridgeException("Output '" + r.name() + "' has " + an + " elements, reference has "
                    + rn, null);
        }
        if (r.shape().length != a.shape().length || !Arrays.equals(r.shape(), a.shape()) && r.shape().length > 0) {
            throw new AccelbridgeException("Output '" + r.name() + "' has shape " + Arrays.toString(a.shape())
                    + ", reference has " + Arrays.toString(r.shape()), null);
        }
        if (r.dtype() != a.dtype()) {
            throw new AccelbridgeException("Output '" + r.name() + "' is " + a.dtype().webName() + ", reference is "
                    + r.dtype().webName(), null);
        }
        return rn;
    }

    /** One line for a reason: "max abs err 1.2e-3, max rel err ..., cosine ... (tolerance: wasm: abs 1e-4, rel 1e-6, against native-cpu)". */
    public String describe() {
        String head = nonFinite > 0
                ? nonFinite + " output element(s) non-finite where the reference is finite (or the reverse)"
                : String.format(Locale.ROOT, "max abs err %.3g, max rel err %.3g, cosine %.6f", maxAbsErr, maxRelErr, cosine);
        String tol = basis != null ? basis : String.format(Locale.ROOT, "abs %.1g", tolerance);
        return head + " (tolerance " + tol + ", against " + against + ")";
    }
}
