package dev.accelbridge.core;

/**
 * IEEE 754 binary16 ↔ float32 for Java 17, which has neither {@code Float.floatToFloat16} nor
 * {@code Float.float16ToFloat}: reading float16 outputs for parity, writing float16 weights for an fp16 variant.
 * Rounding to float16 is to nearest, ties to even, as numpy does.
 */
public final class Float16 {
    private Float16() {
    }

    /** The float16 bits nearest to {@code f} (overflow to infinity, NaN kept). */
    public static short fromFloat(float f) {
        int bits = Float.floatToRawIntBits(f);
        int sign = (bits >>> 16) & 0x8000;
        int exp = (bits >>> 23) & 0xff;
        int mant = bits & 0x7fffff;
        if (exp == 0xff) {
            return (short) (sign | 0x7c00 | (mant != 0 ? 0x200 : 0));
        }
        int e = exp - 127 + 15;
        if (e >= 0x1f) {
            return (short) (sign | 0x7c00);
        }
        if (e <= 0) {
            if (e < -10) {
                return (short) sign;
            }
            // subnormal: shift the mantissa with its implicit 1, rounding to nearest even
            int m = mant | 0x800000;
            int shift = 14 - e;
            int half = m >>> shift;
            int rem = m & ((1 << shift) - 1);
            int mid = 1 << (shift - 1);
            if (rem > mid || (rem == mid && (half & 1) == 1)) {
                half++;
            }
            return (short) (sign | half);
        }
        int half = (e << 10) | (mant >>> 13);
        int rem = mant & 0x1fff;
        if (rem > 0x1000 || (rem == 0x1000 && (half & 1) == 1)) {
            half++; // a carry into the exponent is the right result (up to infinity)
        }
        return (short) (sign | half);
    }

    /** The float value of float16 bits. */
    public static float toFloat(short h) {
        int bits = h & 0xffff;
        int sign = (bits >>> 15) << 31;
        int exp = (bits >>> 10) & 0x1f;
        int mant = bits & 0x3ff;
        if (exp == 0) {
            if (mant == 0) {
                return Float.intBitsToFloat(sign);
            }
            float v = mant / 1024f * (float) Math.pow(2, -14);
            return sign != 0 ? -v : v;
        }
        if (exp == 31) {
            return Float.intBitsToFloat(sign | 0x7f800000 | (mant << 13));
        }
        return Float.intBitsToFloat(sign | ((exp - 15 + 127) << 23) | (mant << 13));
    }
}
