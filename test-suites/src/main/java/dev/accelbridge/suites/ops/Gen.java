package dev.accelbridge.suites.ops;

/**
 * How an input of an op case is filled, so the op's result is meaningful: values in the op's domain (positive for
 * {@code Log}, inside (-1, 1) for {@code Atanh}), distinct where an order is read ({@code TopK}, {@code ArgMax}), ties
 * where ties are the point, indices in range, or fixed values.
 *
 * @param kind   the kind of values
 * @param lo     the least value (uniform and integer kinds)
 * @param hi     the greatest value
 * @param values the values, for {@link Kind#FIXED} (repeated cyclically over the tensor)
 */
record Gen(Kind kind, double lo, double hi, double[] values) {
    enum Kind { UNIFORM, INTEGERS, DISTINCT, BOOL, FIXED }

    /** Uniform in [-2, 2]; integers in [-5, 5]. */
    static final Gen NORMAL = new Gen(Kind.UNIFORM, -2, 2, null);
    /** Strictly positive: (0.1, 3); integers 1..5. */
    static final Gen POSITIVE = new Gen(Kind.UNIFORM, 0.1, 3, null);
    /** Inside (-0.9, 0.9), for the inverse trigonometric ops. */
    static final Gen UNIT = new Gen(Kind.UNIFORM, -0.9, 0.9, null);
    /** Above 1, for {@code Acosh}. */
    static final Gen GE1 = new Gen(Kind.UNIFORM, 1.1, 3, null);
    /** Pairwise distinct values (a shuffled ramp), so an order or an index is never decided by a tie. */
    static final Gen DISTINCT = new Gen(Kind.DISTINCT, 0, 0, null);
    /** Small integers 0..2 (as values of any type): ties on purpose, and zeros. */
    static final Gen TIES = new Gen(Kind.INTEGERS, 0, 2, null);
    /** True or false. */
    static final Gen BOOL = new Gen(Kind.BOOL, 0, 1, null);

    /** Uniform in [lo, hi) (scales of quantized weights). */
    static Gen range(double lo, double hi) {
        return new Gen(Kind.UNIFORM, lo, hi, null);
    }

    /** Integers in [lo, hi] (indices, shifts, counts). */
    static Gen ints(long lo, long hi) {
        return new Gen(Kind.INTEGERS, lo, hi, null);
    }

    /** Fixed values, repeated over the tensor. */
    static Gen fixed(double... values) {
        return new Gen(Kind.FIXED, 0, 0, values);
    }
}
