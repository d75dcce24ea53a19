package dev.accelbridge.core;

/**
 * Where a half-precision variant's arithmetic really ran: in its declared type, or in part in float32 because the
 * runtime inserted casts around the nodes its execution provider has no float16 kernel for (ONNX Runtime's
 * {@code InsertCastTransformer}, whose casts it names {@code InsertedPrecisionFreeCast_...}). A verdict of a variant
 * computed in float32 says little about float16 arithmetic (an overflow past 65,504 that breaks it on a GPU cannot show
 * there), so it is said beside its status and the dtype advice never counts it as evidence for a GPU.
 *
 * @param insertedCasts the casts between float16 and float32 the runtime inserted (0: none, as far as the basis shows)
 * @param basis         how it was established, with the counts the basis gave
 */
@PublicApi
public record ComputedPrecision(int insertedCasts, String basis) {
    /** The node-name prefix ONNX Runtime gives the casts it inserts around nodes without a kernel in the declared type. */
    public static final String INSERTED_CAST = "InsertedPrecisionFreeCast_";

    public ComputedPrecision {
        if (insertedCasts < 0) {
            throw new IllegalArgumentException("a count of inserted casts cannot be negative: " + insertedCasts);
        }
        basis = Untrusted.reason(basis);
    }

    /** No cast was inserted: the variant's nodes ran in their declared type. */
    public static ComputedPrecision asDeclared(String basis) {
        return new ComputedPrecision(0, basis);
    }

    /** The runtime inserted {@code casts} casts to and from float32: part of the variant was computed in float32. */
    public static ComputedPrecision inFloat32InPart(int casts, String basis) {
        if (casts <= 0) {
            throw new IllegalArgumentException("computed in float32 in part needs at least one inserted cast");
        }
        return new ComputedPrecision(casts, basis);
    }

    /** Whether part of the variant was computed in float32. */
    public boolean inFloat32() {
        return insertedCasts > 0;
    }

    /** "computed in float32 in part: 5 casts inserted around ... (basis)", or "computed in its declared type (basis)". */
    public String describe() {
        return inFloat32() ? "computed in float32 in part: the runtime inserted " + insertedCasts + " cast(s) between float16 and "
                + "float32 around the nodes its provider has no float16 kernel for (" + basis + "), so this verdict says little "
                + "about float16 arithmetic (a GPU's)" : "computed in its declared type (" + basis + ")";
    }
}
