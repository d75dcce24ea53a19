package dev.accelbridge.core;

import java.util.Locale;
import java.util.OptionalDouble;

/**
 * A dtype variant's designed loss: how far its outputs are from the fp32 model's run natively on the CPU. A figure beside
 * the variant's verdict, never the verdict: the variant is correct when a backend computes it as its own native CPU run
 * does ({@link RunResult#correctness()}: against that run, none for the run itself), and lossy when it is far from fp32 by design.
 *
 * @param precision the variant's dtype
 * @param toFp32    its outputs against the fp32 model's native CPU run, at the variant's bound
 * @param readout   what users read (pooled embeddings, a similarity ranking) against fp32's, or null where the model has none
 * @param decoding  a generation's token check against fp32 native, or null for a single pass
 * @param basis     what the distance is known to be: the variant's designed loss only where the backend agrees with the
 *                  variant's own native CPU run (or is that run)
 */
public record Fidelity(Precision precision, Parity toFp32, Readout readout, Decoding decoding, Basis basis) {
    public Fidelity {
        java.util.Objects.requireNonNull(precision, "precision");
        java.util.Objects.requireNonNull(toFp32, "toFp32");
        java.util.Objects.requireNonNull(basis, "basis");
    }

    /** What a variant's distance from fp32 native is known to be, by what its own native CPU run showed. */
    public enum Basis {
        /** The variant's designed loss: the backend computes it as its own native CPU run does, or is that run. */
        DESIGNED("the %s variant's designed loss"),
        /** The loss with the backend's own error in it: the backend differs from the variant's own native CPU run. */
        WITH_BACKEND_ERROR("the %s variant against fp32 native, with this backend's own difference from the variant's run in it"),
        /** Not told apart: the variant's own native CPU run could not be compared. */
        UNTOLD("the %s variant against fp32 native: what is its loss by design and what this backend's error is not told "
                + "apart, its own native CPU run not compared");

        private final String words;

        Basis(String words) {
            this.words = words;
        }

        /** The words for {@code precision}'s variant. */
        public String words(Precision precision) {
            return String.format(Locale.ROOT, words, precision.id());
        }

        static Basis of(RunResult r) {
            Parity own = r.variantParity();
            if (own != null) {
                return own.within() ? DESIGNED : WITH_BACKEND_ERROR;
            }
            return r.ranOnNativeCpu() ? DESIGNED : UNTOLD;
        }
    }

    /** The fidelity of {@code r}, when it is a variant compared with the fp32 model's native CPU run. */
    static java.util.Optional<Fidelity> of(RunResult r) {
        Parity p = r.fp32Parity().orElse(null);
        if (r.id().precision() == Precision.FP32 || p == null) {
            return java.util.Optional.empty();
        }
        Decoding d = r.timings().map(tm -> tm.figures()).orElse(null) instanceof Decoding g ? g : null;
        return java.util.Optional.of(new Fidelity(r.id().precision(), p, r.analysis().readout(),
                d != null && d.generations() > 0 && d.check() == TokenCheck.REFERENCE ? d : null, Basis.of(r)));
    }

    /** Lossy by design: outside the variant's bound against fp32 (abs 0.1, rel 2 % by default), or its tokens are not fp32's. */
    public boolean lossy() {
        return !toFp32.within() || decoding != null && decoding.verified() < decoding.generations()
                || readout != null && !readout.allAgree();
    }

    /**
     * What users read against fp32 native, 0 to 1: a generation's share of generations whose tokens are fp32's; else the
     * readout's lowest cosine where the model has one; else the raw outputs' cosine; empty when that is not finite.
     */
    public OptionalDouble closeness() {
        double c = decoding != null ? decoding.verified() / (double) decoding.generations()
                : readout != null ? readout.minCosine() : toFp32.cosine();
        return Double.isFinite(c) ? OptionalDouble.of(c) : OptionalDouble.empty();
    }

    /** What {@link #closeness()} compared: {@code tokens}, a readout's kind, or {@code outputs}. */
    public String closenessOf() {
        return decoding != null ? "tokens" : readout != null ? readout.kind().id() : "outputs";
    }

    /** "lossy: pooled-embedding cosine 0.9870 to fp32 native (outputs: max abs err 0.286, cosine 0.995000)". */
    public String describe() {
        String head = lossy() ? "lossy" : "close to fp32";
        OptionalDouble c = closeness();
        String figure = c.isEmpty() ? "outputs not finite where fp32 native's are"
                : decoding != null ? String.format(Locale.ROOT, "tokens of %.0f%% of generations fp32 native's", 100 * c.getAsDouble())
                : String.format(Locale.ROOT, "%s cosine %.4f to fp32 native", closenessOf(), c.getAsDouble());
        String raw = toFp32.nonFinite() > 0 ? toFp32.nonFinite() + " element(s) non-finite"
                : String.format(Locale.ROOT, "max abs err %.3g, cosine %.6f", toFp32.maxAbsErr(), toFp32.cosine());
        return head + " (" + basis.words(precision) + "): " + figure
                + (decoding == null && readout == null ? " (max abs err " + String.format(Locale.ROOT, "%.3g", toFp32.maxAbsErr()) + ")"
                : " (outputs: " + raw + ")");
    }
}
