package dev.accelbridge.core;

import java.util.Locale;

/** Byte counts in words, the one way every report and message writes them. */
@PublicApi
public final class Bytes {
    private static final String[] UNITS = {"B", "KiB", "MiB", "GiB", "TiB"};
    private static final java.util.regex.Pattern SIZE = java.util.regex.Pattern.compile("(?i)\\s*([0-9]+(?:\\.[0-9]+)?)\\s*([kmgt]?)(?:i?b)?\\s*");

    private Bytes() {
    }

    /**
     * A size as a person writes it: {@code 1073741824}, {@code 512MiB}, {@code 4GiB}, {@code 1.5 GB} (K, M, G, T with or
     * without {@code i}/{@code B}, all read as powers of 1024, as GPU memory is sold).
     *
     * @throws AccelbridgeException when it is no size
     */
    public static long parse(String text) {
        java.util.regex.Matcher m = SIZE.matcher(text == null ? "" : text);
        if (!m.matches()) {
            throw new AccelbridgeException(Untrusted.quote(text) + " is not a size", "write it as 4GiB, 512MiB or a number of bytes");
        }
        int power = "kmgt".indexOf(Character.toLowerCase(m.group(2).isEmpty() ? ' ' : m.group(2).charAt(0))) + 1;
        double v = Double.parseDouble(m.group(1)) * Math.pow(1024, power);
        if (v < 1 || v > 1L << 60) {
            throw new AccelbridgeException(Untrusted.quote(text) + " is not a size from 1 byte to 1 EiB", "write it as 4GiB, 512MiB or a number of bytes");
        }
        return Math.round(v);
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
