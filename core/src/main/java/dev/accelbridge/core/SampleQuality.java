package dev.accelbridge.core;

/**
 * How far one case's figures can be trusted, kept beside them ({@link Timings#quality()}): the median's interval, the
 * clock the samples were taken with, a floor they sit on, the GPU's own time, steady state and how busy the machine
 * was. A figure not measured is NaN (null in JSON), a judgement not made is null.
 *
 * @param p50Ci             the median's 95 % order-statistic interval ({@code p50CiMs}), null below 6 samples
 * @param timerResolutionMs the smallest step of the clock that timed the samples, measured on that side
 * @param latencyFloorMs    the floor the samples sit on ({@link LatencyFloor#of}), NaN when none was detected
 * @param readbackMs        the side's measured empty readback round trip (WebGPU), NaN where none applies
 * @param gpuMs             GPU time per inference from WebGPU timestamp queries, NaN without {@code timestamp-query}
 * @param steady            whether the case had reached steady state: its warm-up settled ({@link Settling}) and its timed
 *                          samples show no trend ({@link SampleStats#steadiness}); null when not judged
 * @param trend             the timed samples' second half's median over the first half's, minus one; for a warm-up that
 *                          never settled, its last block's change (NaN when not judged)
 * @param loadBefore        the host's 1-minute load average as the case began (NaN where the OS gives none)
 * @param loadAfter         the same as it ended
 * @param busy              the load average before the case exceeded the host's cores (other work was waiting), null
 *                          when unknown
 * @param warmupMs          the warm-up runs' time in all, measured where they ran (NaN: not measured)
 * @param settled           whether the warm-up went on until the runs stopped getting faster ({@link Settling}): false when
 *                          its cap came first, null when not judged (exact counts, or a record from before)
 * @param floorStopped      sampling stopped once {@link FloorStop#RUNS} runs showed the latency floor ({@link FloorStop}):
 *                          the warm-ups and the timed runs are fewer than the rule's counts, since more would time the
 *                          floor again
 * @param verdictWindow     the case ran its verdict's window only ({@link SamplingDepth#VERDICT}: a software adapter by
 *                          default): no warm-up, a few timed runs, so its figures are indicative, not settled
 */
@PublicApi
public record SampleQuality(Interval p50Ci, double timerResolutionMs, double latencyFloorMs, double readbackMs, double gpuMs,
                            Boolean steady, double trend, double loadBefore, double loadAfter, Boolean busy, double warmupMs,
                            Boolean settled, boolean floorStopped, boolean verdictWindow) {
    /** Nothing known (a record stored before these were measured). */
    public static final SampleQuality UNKNOWN = new SampleQuality(null, Double.NaN, Double.NaN, Double.NaN, Double.NaN,
            null, Double.NaN, Double.NaN, Double.NaN, null, Double.NaN, null, false, false);

    /** Whether the figures sit on a floor and so say nothing of the model's own time (never ranked). */
    public boolean floored() {
        return Double.isFinite(latencyFloorMs);
    }

    /**
     * What limits the trust in these figures, in words: a latency floor, no steady state (a warm-up that did not settle is
     * one), a busy machine; empty when nothing does. One wording for every report, the dashboard and {@code run}'s table.
     */
    public java.util.List<String> caveatList() {
        java.util.List<String> out = new java.util.ArrayList<>();
        String stopped = floorStopped ? "; sampling stopped once its runs showed it" : "";
        if (verdictWindow) {
            out.add("indicative, not settled: the verdict's runs only (no warm-up, at most " + SamplingDepth.WINDOW_RUNS
                    + " timed); --sampling full settles it");
        }
        if (timerFloor()) {
            out.add("latency floor: at the timer's resolution (" + ms(latencyFloorMs) + " ms)" + stopped + "; not ranked");
        } else if (floored()) {
            out.add("latency floor: readback polled at ~" + ms(latencyFloorMs) + " ms; "
                    + (Double.isFinite(gpuMs) ? "GPU time " + ms(gpuMs) + " ms (timestamp queries)" : "compute time unknown")
                    + stopped + "; not ranked");
        }
        if (Boolean.FALSE.equals(steady)) {
            // a trend too short to reckon (a few long runs: a generation of many seconds) is unknown, never "NaN %"
            out.add(!Double.isFinite(trend) ? (Boolean.FALSE.equals(settled) ? "not steady: the warm-up did not settle (its trend unknown)"
                    : "not steady: drift unknown") : String.format(java.util.Locale.ROOT, Boolean.FALSE.equals(settled)
                    ? "not steady: warm-up still %+.0f %% per block" : "not steady: drift %+.0f %%", trend * 100));
        }
        if (Boolean.TRUE.equals(busy)) {
            out.add(String.format(java.util.Locale.ROOT, "machine busy: load %.1f", loadBefore));
        }
        return out;
    }

    /** {@link #caveatList()}, each in brackets after a space (" [not steady: drift +12 %]"); "" when none. */
    public String caveats() {
        StringBuilder sb = new StringBuilder();
        caveatList().forEach(c -> sb.append(" [").append(c).append(']'));
        return sb.toString();
    }

    private static String ms(double v) {
        return Double.isFinite(v) ? Timings.formatMs(v) : "–";
    }

    /** Whether the floor is the timer's granularity (rather than a polled readback). */
    public boolean timerFloor() {
        return floored() && latencyFloorMs == timerResolutionMs;
    }

    /** This with the median's interval and steadiness from {@code samples} (in the order measured). */
    SampleQuality fromSamples(double[] samples) {
        double[] sorted = samples.clone();
        java.util.Arrays.sort(sorted);
        SampleStats.Steadiness st = SampleStats.steadiness(samples);
        return new SampleQuality(SampleStats.quantileCi(sorted, 0.5), timerResolutionMs,
                LatencyFloor.of(samples, timerResolutionMs, readbackMs), readbackMs, gpuMs,
                st == null ? null : st.steady(), st == null ? Double.NaN : st.trend(), loadBefore, loadAfter, busy, warmupMs, settled, floorStopped, verdictWindow);
    }

    /** This with the clock that timed the samples and, on WebGPU, the measured readback round trip. */
    public SampleQuality withClock(double timerResolutionMs, double readbackMs) {
        return new SampleQuality(p50Ci, timerResolutionMs, latencyFloorMs, readbackMs, gpuMs, steady, trend, loadBefore,
                loadAfter, busy, warmupMs, settled, floorStopped, verdictWindow);
    }

    /** This with the GPU's time per inference. */
    public SampleQuality withGpuMs(double gpuMs) {
        return new SampleQuality(p50Ci, timerResolutionMs, latencyFloorMs, readbackMs, gpuMs, steady, trend, loadBefore,
                loadAfter, busy, warmupMs, settled, floorStopped, verdictWindow);
    }

    /** This with the latency floor {@code ms} found under other samples of the case (a generation's tokens). */
    public SampleQuality withLatencyFloor(double ms) {
        return new SampleQuality(p50Ci, timerResolutionMs, ms, readbackMs, gpuMs, steady, trend, loadBefore, loadAfter, busy,
                warmupMs, settled, floorStopped, verdictWindow);
    }

    /** This with the host's load around the case, on a host of {@code cores} cores. */
    public SampleQuality withLoad(double before, double after, int cores) {
        return new SampleQuality(p50Ci, timerResolutionMs, latencyFloorMs, readbackMs, gpuMs, steady, trend, before, after,
                before >= 0 && cores > 0 ? before > cores : null, warmupMs, settled, floorStopped, verdictWindow);
    }

    /** This with the warm-up runs' total time. */
    public SampleQuality withWarmupMs(double ms) {
        return new SampleQuality(p50Ci, timerResolutionMs, latencyFloorMs, readbackMs, gpuMs, steady, trend, loadBefore,
                loadAfter, busy, ms, settled, floorStopped, verdictWindow);
    }

    /** This marked as the verdict's window's figures ({@link SamplingDepth#VERDICT}): indicative, not settled. */
    public SampleQuality inVerdictWindow() {
        return new SampleQuality(p50Ci, timerResolutionMs, latencyFloorMs, readbackMs, gpuMs, steady, trend, loadBefore,
                loadAfter, busy, warmupMs, settled, floorStopped, true);
    }

    /** This with whether sampling stopped on the latency floor ({@link FloorStop}). */
    public SampleQuality withFloorStopped(boolean stopped) {
        return new SampleQuality(p50Ci, timerResolutionMs, latencyFloorMs, readbackMs, gpuMs, steady, trend, loadBefore,
                loadAfter, busy, warmupMs, settled, stopped, verdictWindow);
    }

    /**
     * This with how the warm-up ended: a warm-up that never settled makes the case not steady, its trend the last block's
     * change, whatever its timed samples say.
     */
    public SampleQuality withWarmup(double ms, Boolean warmupSettled, double warmupTrend) {
        boolean unsettled = Boolean.FALSE.equals(warmupSettled);
        return new SampleQuality(p50Ci, timerResolutionMs, latencyFloorMs, readbackMs, gpuMs, unsettled ? Boolean.FALSE : steady,
                unsettled ? warmupTrend : trend, loadBefore, loadAfter, busy, ms, warmupSettled, floorStopped, verdictWindow);
    }
}
