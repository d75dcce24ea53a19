package dev.accelbridge.core;

import org.apache.commons.math3.stat.regression.SimpleRegression;

import java.util.List;
import java.util.Locale;

/**
 * A leak check across session re-creation ({@code --recreate N}): the session is created, run once and released N
 * times, and memory is read after each release; a steady rise per cycle is a leak.
 *
 * @param cycles                 the cycles asked for
 * @param samples                one sample per completed cycle
 * @param rssGrowthPerCycleBytes least-squares slope of the resident memory over the cycles (process, or the browser's
 *                               process tree), NaN with fewer than 3 samples or none measured
 * @param heapGrowthPerCycleBytes same for the JS heap (pages only), NaN natively
 * @param note                   what was measured and how
 */
public record Recreate(int cycles, List<Cycle> samples, double rssGrowthPerCycleBytes, double heapGrowthPerCycleBytes,
                       String note) {
    /** Growth per cycle above which the check calls it a suspected leak (1 MiB per create/release cycle). */
    public static final double LEAK_BYTES_PER_CYCLE = 1 << 20;

    /**
     * One cycle.
     *
     * @param cycle     1-based
     * @param createMs  session creation time
     * @param runMs     its one run
     * @param rssBytes  resident memory after the release (-1 when not measurable)
     * @param heapBytes JS heap after the release (-1 natively or when the browser does not tell)
     */
    public record Cycle(int cycle, double createMs, double runMs, long rssBytes, long heapBytes) {
    }

    public Recreate {
        samples = List.copyOf(samples);
    }

    /** Builds the check from its samples, computing the growth slopes. */
    public static Recreate of(int cycles, List<Cycle> samples, String note) {
        return new Recreate(cycles, samples, slope(samples, true), slope(samples, false), note);
    }

    /** Whether the memory rose by more than {@link #LEAK_BYTES_PER_CYCLE} per cycle. */
    public boolean suspectedLeak() {
        return rssGrowthPerCycleBytes > LEAK_BYTES_PER_CYCLE || heapGrowthPerCycleBytes > LEAK_BYTES_PER_CYCLE;
    }

    /** One line. */
    public String describe() {
        return String.format(Locale.ROOT, "%d re-creations: RSS %s/cycle, JS heap %s/cycle%s", samples.size(),
                bytes(rssGrowthPerCycleBytes), bytes(heapGrowthPerCycleBytes), suspectedLeak() ? " (suspected leak)" : "");
    }

    private static String bytes(double b) {
        return Double.isNaN(b) ? "n/a" : String.format(Locale.ROOT, "%+.1f KiB", b / 1024);
    }

    /** Least-squares slope of the memory over the cycle number, skipping unmeasured samples. */
    static double slope(List<Cycle> samples, boolean rss) {
        SimpleRegression fit = new SimpleRegression();
        for (Cycle c : samples) {
            long y = rss ? c.rssBytes() : c.heapBytes();
            if (y >= 0) {
                fit.addData(c.cycle(), y);
            }
        }
        return fit.getN() < 3 ? Double.NaN : fit.getSlope();
    }
}
