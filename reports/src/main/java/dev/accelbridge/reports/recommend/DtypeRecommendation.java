package dev.accelbridge.reports.recommend;

import dev.accelbridge.core.ComputedPrecision;
import dev.accelbridge.core.Interval;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.PublicApi;

import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * Which of a model's dtype variants to ship to one backend in one deployment target (native, or a browser lane with its
 * onnxruntime-web engine): the fastest variant whose user-visible output stays within a stated closeness of the fp32
 * model run natively on the CPU, and the browser still computing that variant as its own native run does; with what it
 * skipped and why. From the store's measurements only.
 *
 * @param host            the host name
 * @param hostFingerprint the host
 * @param family          the model family
 * @param model           the model (its variants share the name)
 * @param target          the lane ({@code native}, {@code chromium@156+ort-web@1.30.0+engine@webgpu-ep})
 * @param backend         the backend asked for
 * @param options         the session options every variant weighed here ran with ({@code default}, {@code graph-capture=on})
 * @param scenario        the scenario every variant weighed here ran ({@code single-pass}, a generation's)
 * @param minCloseness    the stated tolerance: the lowest closeness to fp32 native a variant may have (a cosine; for a
 *                        generation, the share of generations whose tokens are fp32 native's)
 * @param best            the variant to ship, or null when none qualifies
 * @param fp32            the fp32 variant on the same backend and lane, or null when it did not run there
 * @param skipped         every other variant measured for the model, with why it is not the answer
 */
@PublicApi
public record DtypeRecommendation(String host, String hostFingerprint, String family, String model, String target, String backend,
                                  String options, String scenario, double minCloseness, Choice best, Choice fp32, List<Skipped> skipped) {
    public DtypeRecommendation {
        skipped = List.copyOf(skipped);
    }

    /**
     * One variant as it ran.
     *
     * @param precision the dtype
     * @param closeness what users read against fp32 native, 0 to 1 ({@link #closenessOf})
     * @param closenessOf what was compared: {@code tokens} (a generation: the share of its generations whose tokens are
     *                  exactly fp32 native's), or a cosine of {@code pooled-embedding}, {@code similarity} or {@code outputs}
     *                  (the raw outputs)
     * @param p50Ms     its median latency (a generation: the time of a token after the first)
     * @param speedupVsFp32 fp32's figure over this one on the same backend and lane (1 for fp32 itself), or NaN when fp32 did
     *                  not run there
     * @param speedupInterval the 95 % interval of {@code speedupVsFp32} from both sides' samples, or null where either has too
     *                  few for one (then no speed is claimed)
     * @param reference this is the fp32 model run natively on the CPU: the reference every variant is read against
     * @param computed  where a half-precision variant's arithmetic ran here, or null when not checked: a variant this backend
     *                  computed in float32 in part is the answer for this backend only, never evidence of float16 on a GPU
     */
    public record Choice(Precision precision, double closeness, String closenessOf, double p50Ms, double speedupVsFp32,
                         Interval speedupInterval, boolean reference, ComputedPrecision computed) {
        /** "q8: pooled-embedding cosine 0.9871 to fp32 native, 2.20x [2.05-2.31] faster than fp32 (107.5 ms)". */
        public String describe() {
            String speed = reference ? ", the reference itself" : precision == Precision.FP32 || Double.isNaN(speedupVsFp32) ? ""
                    : ", " + speed(speedupVsFp32, speedupInterval, "fp32");
            String where = computed != null && computed.inFloat32() ? "; computed in float32 in part here (" + computed.insertedCasts()
                    + " inserted casts), so it says nothing of " + precision.id() + " arithmetic on a GPU" : "";
            return String.format(Locale.ROOT, "%s: %s%s (%.3g ms)%s", precision.id(), closeness(closenessOf, closeness), speed, p50Ms, where);
        }

        /**
         * A speed ratio as far as its interval supports it: "2.20x [2.05-2.31] faster than fp32", "as fast as fp32 within
         * the interval (1.00x [0.97-1.03])", or "speed against fp32 not settled (1.00x; too few samples for an interval)".
         */
        static String speed(double ratio, Interval ci, String other) {
            if (ci == null) {
                return String.format(Locale.ROOT, "speed against %s not settled (%.2fx; too few samples for an interval)", other, ratio);
            }
            if (!ci.excludes(1)) {
                return String.format(Locale.ROOT, "as fast as %s within the interval (%.2fx [%.2f-%.2f])", other, ratio, ci.lo(), ci.hi());
            }
            boolean faster = ci.lo() > 1;
            Interval shown = faster ? ci : ci.inverse();
            return String.format(Locale.ROOT, "%.2fx [%.2f-%.2f] %s than %s", faster ? ratio : 1 / ratio, shown.lo(), shown.hi(),
                    faster ? "faster" : "slower", other);
        }

        /** "pooled-embedding cosine 0.9871 to fp32 native", or for a generation "tokens of 80% of generations fp32 native's". */
        static String closeness(String of, double value) {
            return of.equals("tokens") ? String.format(Locale.ROOT, "tokens of %.0f%% of generations fp32 native's", 100 * value)
                    : String.format(Locale.ROOT, "%s cosine %.4f to fp32 native", of, value);
        }
    }

    /**
     * A variant that is not the answer.
     *
     * @param precision the dtype
     * @param why       its verdict and the evidence ("UNSUPPORTED: ...", "wrong here: cosine 0.048 to its own native run",
     *                  "lossy: cosine 0.81 below 0.99", "slower than q8")
     */
    public record Skipped(Precision precision, String why) {
    }

    /** One line: "webgpu on chromium@... (options graph-capture=on): ship q8 (...); skipped q4 (lossy: ...)". */
    public String describe() {
        String at = (options.equals("default") ? "" : " (options " + options + ")")
                + (scenario.equals("single-pass") ? "" : " (scenario " + scenario + ")");
        String head = backend + " on " + target + at + ": " + (best == null ? "no variant qualifies" : "ship " + best.describe());
        return skipped.isEmpty() ? head : head + "; skipped " + skipped.stream().map(s -> s.precision().id() + " (" + s.why() + ")")
                .collect(Collectors.joining(", "));
    }
}
