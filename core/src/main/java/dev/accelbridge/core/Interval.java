package dev.accelbridge.core;

/**
 * A two-sided 95 % confidence interval {@code [lo, hi]}: of a median ({@code p50CiMs}, from order statistics) or of a
 * ratio ({@code …Ci}, from the bootstrap). Its JSON form is the array {@code [lo, hi]} ({@link #toArray()}).
 *
 * @param lo the lower bound
 * @param hi the upper bound
 */
@PublicApi
public record Interval(double lo, double hi) {
    public Interval {
        if (!(lo <= hi)) {
            throw new IllegalArgumentException("an interval's lower bound " + lo + " is above its upper bound " + hi);
        }
    }

    /** The interval from its JSON array. */
    public static Interval of(double[] loHi) {
        if (loHi == null || loHi.length != 2) {
            throw new IllegalArgumentException("an interval is [lo, hi]");
        }
        return new Interval(loHi[0], loHi[1]);
    }

    /** {@code [lo, hi]}. */
    public double[] toArray() {
        return new double[]{lo, hi};
    }

    /** Whether {@code v} lies outside the interval. */
    public boolean excludes(double v) {
        return v < lo || v > hi;
    }

    /** The interval of {@code 1 / x}. */
    public Interval inverse() {
        return new Interval(1 / hi, 1 / lo);
    }

    /** "[0.91, 1.07]" with {@code digits} decimals. */
    public String format(int digits) {
        return String.format(java.util.Locale.ROOT, "[%." + digits + "f, %." + digits + "f]", lo, hi);
    }
}
