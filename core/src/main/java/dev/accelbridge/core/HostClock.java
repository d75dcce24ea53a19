package dev.accelbridge.core;

import java.lang.management.ManagementFactory;

/**
 * What the host says about time and load on the native side: the resolution of {@link System#nanoTime} (measured once,
 * not assumed: the smallest step it takes between consecutive reads) and the 1-minute load average.
 */
@PublicApi
public final class HostClock {
    private static volatile double resolutionMs = Double.NaN;

    private HostClock() {
    }

    /** The smallest non-zero step of {@link System#nanoTime} seen over a few thousand consecutive reads, in ms. */
    public static double nanoTimeResolutionMs() {
        double r = resolutionMs;
        if (Double.isNaN(r)) {
            long best = Long.MAX_VALUE;
            for (int i = 0; i < 2000; i++) {
                long a = System.nanoTime();
                long b;
                do {
                    b = System.nanoTime();
                } while (b == a);
                best = Math.min(best, b - a);
            }
            r = best / 1e6;
            resolutionMs = r;
        }
        return r;
    }

    /** The 1-minute load average, NaN where the OS gives none. */
    public static double loadAverage() {
        double l = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
        return l < 0 ? Double.NaN : l;
    }

    /** The cores this JVM may use. */
    public static int cores() {
        return Runtime.getRuntime().availableProcessors();
    }
}
