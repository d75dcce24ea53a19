package dev.accelbridge.core;

import org.apache.commons.math3.stat.regression.SimpleRegression;

import java.util.List;
import java.util.Locale;
import java.util.function.ToLongFunction;

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
 * @param gpuGrowthPerCycleBytes same for the GPU bytes the page's ledger held after each release (WebGPU pages only)
 * @param wasmGrowthPerCycleBytes same for onnxruntime-web's WebAssembly memory (pages only)
 */
public record Recreate(int cycles, List<Cycle> samples, double rssGrowthPerCycleBytes, double heapGrowthPerCycleBytes,
                       String note, double gpuGrowthPerCycleBytes, double wasmGrowthPerCycleBytes) {
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
     * @param gpuBytes  GPU bytes the page's ledger held after the release (-1 natively or where WebGPU is not watched)
     * @param wasmBytes onnxruntime-web's WebAssembly memory after the release (-1 natively)
     */
    public record Cycle(int cycle, double createMs, double runMs, long rssBytes, long heapBytes, long gpuBytes, long wasmBytes) {
        /** A cycle with resident memory and the JS heap alone. */
        public Cycle(int cycle, double createMs, double runMs, long rssBytes, long heapBytes) {
            this(cycle, createMs, runMs, rssBytes, heapBytes, -1, -1);
        }
    }

    public Recreate {
        samples = List.copyOf(samples);
    }

    /** A check read from before the GPU and WebAssembly figures existed. */
    public Recreate(int cycles, List<Cycle> samples, double rssGrowthPerCycleBytes, double heapGrowthPerCycleBytes, String note) {
        this(cycles, samples, rssGrowthPerCycleBytes, heapGrowthPerCycleBytes, note, Double.NaN, Double.NaN);
    }

    /** Builds the check from its samples, computing the growth slopes. */
    public static Recreate of(int cycles, List<Cycle> samples, String note) {
        return new Recreate(cycles, samples, slope(samples, Cycle::rssBytes), slope(samples, Cycle::heapBytes), note,
                slope(samples, Cycle::gpuBytes), slope(samples, Cycle::wasmBytes));
    }

    /** Whether any measured memory rose by more than {@link #LEAK_BYTES_PER_CYCLE} per cycle. */
    public boolean suspectedLeak() {
        return rssGrowthPerCycleBytes > LEAK_BYTES_PER_CYCLE || heapGrowthPerCycleBytes > LEAK_BYTES_PER_CYCLE
                || gpuGrowthPerCycleBytes > LEAK_BYTES_PER_CYCLE || wasmGrowthPerCycleBytes > LEAK_BYTES_PER_CYCLE;
    }

    /** One line; the GPU and WebAssembly slopes where they were measured. */
    public String describe() {
        return String.format(Locale.ROOT, "%d re-creations: RSS %s/cycle, JS heap %s/cycle%s%s%s", samples.size(),
                bytes(rssGrowthPerCycleBytes), bytes(heapGrowthPerCycleBytes),
                Double.isNaN(gpuGrowthPerCycleBytes) ? "" : ", GPU " + bytes(gpuGrowthPerCycleBytes) + "/cycle",
                Double.isNaN(wasmGrowthPerCycleBytes) ? "" : ", wasm heap " + bytes(wasmGrowthPerCycleBytes) + "/cycle",
                suspectedLeak() ? " (suspected leak)" : "");
    }

    private static String bytes(double b) {
        return Double.isNaN(b) ? "n/a" : String.format(Locale.ROOT, "%+.1f KiB", b / 1024);
    }

    /** Least-squares slope of one memory figure over the cycle number, skipping unmeasured samples. */
    static double slope(List<Cycle> samples, ToLongFunction<Cycle> figure) {
        SimpleRegression fit = new SimpleRegression();
        for (Cycle c : samples) {
            long y = figure.applyAsLong(c);
            if (y >= 0) {
                fit.addData(c.cycle(), y);
            }
        }
        return fit.getN() < 3 ? Double.NaN : fit.getSlope();
    }
}
