package dev.accelbridge.core;

import java.util.Locale;

/** Byte counts in words, the one way every report and message writes them. */
@PublicApi
public final class Bytes {
    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB"};

    private Bytes() {
    }

    /** {@code 0 B}, {@code 512 B}, {@code 1.5 KiB}, {@code 12.3 MiB}; a negative count (unknown) is {@code unknown}. */
    public static String iec(long bytes) {
        if (bytes < 0) {
            return "unknown";
        }
        if (bytes < 1024) {
            return bytes + " B";
        }
        double v = bytes;
        int u = 0;
        while (v >= 1024 && u < UNITS.length - 1) {
            v /= 1024;
            u++;
        }
        return String.format(Locale.ROOT, "%.1f %s", v, UNITS[u]);
    }
}
