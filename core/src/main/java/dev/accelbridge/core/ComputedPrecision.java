package dev.accelbridge.core;

/**
 * Where a half-precision variant's arithmetic really ran: in its declared type, or in part in float32 because the
 * runtime inserted casts around the nodes its execution provider has no float16 kernel for (ONNX Runtime's
 * {@code InsertCastTransformer}, whose casts it names {@code InsertedPrecisionFreeCast_...}). A verdict of a variant
 * computed in float32 says little about float16 arithmetic (an overflow past 65,504 that breaks it on a GPU cannot show
 * there), so it is said beside its status and the dtype advice never counts it as evidence for a GPU.
 *
 * <p>A kernel may also widen its float16 inputs to float32 inside itself and narrow the result back (onnxruntime-web's
 * JSEP computes LayerNormalization's mean and variance so): no cast is inserted, yet that op's float16 arithmetic is not
 * what ran. Such op types are said too ({@code float32Inside}), from the engine's own kernels as shipped.
 *
 * @param insertedCasts the casts between float16 and float32 the runtime inserted (0: none, as far as the basis shows)
 * @param float32Inside the op types that ran whose kernels compute in float32 inside (sorted; empty: none known)
 * @param basis         how it was established, with the counts the basis gave
 */
@PublicApi
public record ComputedPrecision(int insertedCasts, java.util.List<String> float32Inside, String basis) {
    /** The node-name prefix ONNX Runtime gives the casts it inserts around nodes without a kernel in the declared type. */
    public static final String INSERTED_CAST = "InsertedPrecisionFreeCast_";

    public ComputedPrecision {
        if (insertedCasts < 0) {
            throw new IllegalArgumentException("a count of inserted casts cannot be negative: " + insertedCasts);
        }
        basis = Untrusted.reason(basis);
        // a record stored before kernels' own float32 was read has none
        float32Inside = float32Inside == null ? java.util.List.of() : float32Inside.stream().sorted().distinct().toList();
    }

    /** No cast was inserted: the variant's nodes ran in their declared type. */
    public static ComputedPrecision asDeclared(String basis) {
        return new ComputedPrecision(0, java.util.List.of(), basis);
    }

    /** No cast was inserted, and the kernels of {@code float32Inside} compute in float32 inside themselves. */
    public static ComputedPrecision asDeclared(java.util.List<String> float32Inside, String basis) {
        return new ComputedPrecision(0, float32Inside, basis);
    }

    /** The runtime inserted {@code casts} casts to and from float32: part of the variant was computed in float32. */
    public static ComputedPrecision inFloat32InPart(int casts, String basis) {
        return inFloat32InPart(casts, java.util.List.of(), basis);
    }

    /** As {@link #inFloat32InPart(int, String)}, with the op types whose kernels compute in float32 inside themselves. */
    public static ComputedPrecision inFloat32InPart(int casts, java.util.List<String> float32Inside, String basis) {
        if (casts <= 0) {
            throw new IllegalArgumentException("computed in float32 in part needs at least one inserted cast");
        }
        return new ComputedPrecision(casts, float32Inside, basis);
    }

    /** Whether part of the variant was computed in float32. */
    public boolean inFloat32() {
        return insertedCasts > 0;
    }

    /**
     * "computed in float32 in part: 5 casts inserted around ... (basis)"; "no cast to float32 inserted, but ... compute in
     * float32 inside their kernels: LayerNormalization (basis)"; or "computed in its declared type (basis)".
     */
    public String describe() {
        String inside = float32Inside.isEmpty() ? "" : "; " + String.join(", ", float32Inside) + " compute in float32 inside "
                + "their kernels (inputs widened, the result narrowed back), so their float16 arithmetic is not what ran";
        if (inFloat32()) {
            return "computed in float32 in part: the runtime inserted " + insertedCasts + " cast(s) between float16 and "
                    + "float32 around the nodes its provider has no float16 kernel for (" + basis + ")" + inside
                    + ", so this verdict says little about float16 arithmetic (a GPU's)";
        }
        return float32Inside.isEmpty() ? "computed in its declared type (" + basis + ")"
                : "no cast to float32 inserted (" + basis + ")" + inside;
    }
}
