package dev.accelbridge.core;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * int64 outputs that a backend computed in 32 bits: every element that differs from the reference is the reference cut
 * to 32 bits (its low 32 bits, or a value clamped into the 32-bit range). Found when tried: graph capture on onnxruntime-web's
 * native WebGPU EP turns its int64 kernels on, and they run as 32-bit integers, so 2^33 + 5 comes back as 5.
 */
public final class Int64Cut {
    private Int64Cut() {
    }

    /**
     * The int64 outputs of {@code actual} that are {@code reference}'s cut to 32 bits, as a sentence ("output 'y': 8 of 8
     * int64 values are the reference's cut to 32 bits"), or empty when an output differs otherwise or none differs.
     */
    public static Optional<String> find(List<NamedTensor> reference, List<NamedTensor> actual) {
        List<String> cut = new ArrayList<>();
        for (NamedTensor r : reference) {
            if (r.dtype() != DType.INT64) {
                continue;
            }
            NamedTensor a = actual.stream().filter(t -> t.name().equals(r.name())).findFirst().orElse(null);
            if (a == null || a.dtype() != DType.INT64 || a.size() != r.size()) {
                continue;
            }
            ByteBuffer rb = r.buffer();
            ByteBuffer ab = a.buffer();
            long differ = 0;
            boolean allCut = true;
            for (int i = 0; i < (int) r.size(); i++) {
                long x = rb.getLong(i * 8);
                long y = ab.getLong(i * 8);
                if (x != y) {
                    differ++;
                    allCut &= isCut(x, y);
                }
            }
            if (differ > 0 && allCut) {
                cut.add(String.format(Locale.ROOT, "output %s: %d of %d int64 values are the reference's cut to 32 bits",
                        Untrusted.quote(r.name()), differ, r.size()));
            } else if (differ > 0) {
                return Optional.empty(); // another kind of difference: no claim about why
            }
        }
        return cut.isEmpty() ? Optional.empty() : Optional.of(String.join("; ", cut));
    }

    /** Whether {@code y} is {@code x} in 32 bits: its low 32 bits sign-extended, or {@code x} clamped into the int range. */
    static boolean isCut(long x, long y) {
        return y == (long) (int) x || y == Math.max(Integer.MIN_VALUE, Math.min(Integer.MAX_VALUE, x));
    }
}
