package dev.accelbridge.reports.store;

import dev.accelbridge.core.Interval;
import dev.accelbridge.core.SampleQuality;

import static dev.accelbridge.reports.store.ResultJson.finite;

/**
 * {@link SampleQuality} as JSON: the store's {@code quality} column, and the same fields flat in {@link ResultForm}. A
 * figure not measured is null.
 *
 * @param p50CiMs           the median's interval {@code [lo, hi]}
 * @param timerResolutionMs the clock's measured step
 * @param latencyFloorMs    the floor the samples sit on
 * @param readbackMs        the measured empty readback (WebGPU)
 * @param gpuMs             GPU time per inference (timestamp queries)
 * @param steady            reached steady state
 * @param trend             second half's median over the first's, minus one
 * @param loadBefore        the host's load average before
 * @param loadAfter         and after
 * @param busy              the host had more runnable work than cores before the case
 * @param warmupMs          the warm-up runs' time in all
 * @param settled           the warm-up went on until the runs stopped getting faster (false: its cap came first)
 * @param floorStopped      sampling stopped once three runs showed the latency floor (null in a record from before: false)
 * @param verdictWindow     the case ran its verdict's window only: indicative, not settled (null: false)
 */
record QualityForm(double[] p50CiMs, Double timerResolutionMs, Double latencyFloorMs, Double readbackMs, Double gpuMs,
                   Boolean steady, Double trend, Double loadBefore, Double loadAfter, Boolean busy, Double warmupMs, Boolean settled,
                   Boolean floorStopped, Boolean verdictWindow) {

    static QualityForm of(SampleQuality q) {
        return new QualityForm(q.p50Ci() == null ? null : q.p50Ci().toArray(), finite(q.timerResolutionMs()),
                finite(q.latencyFloorMs()), finite(q.readbackMs()), finite(q.gpuMs()), q.steady(), finite(q.trend()), finite(q.loadBefore()),
                finite(q.loadAfter()), q.busy(), finite(q.warmupMs()), q.settled(),
                q.floorStopped() ? Boolean.TRUE : null, q.verdictWindow() ? Boolean.TRUE : null);
    }

    SampleQuality toQuality() {
        return new SampleQuality(p50CiMs == null ? null : Interval.of(p50CiMs), d(timerResolutionMs), d(latencyFloorMs),
                d(readbackMs), d(gpuMs), steady, d(trend), d(loadBefore), d(loadAfter), busy, d(warmupMs), settled,
                Boolean.TRUE.equals(floorStopped), Boolean.TRUE.equals(verdictWindow));
    }

    /** The quality column's text, or null when nothing is known. */
    static String column(SampleQuality q) {
        if (q == null || q.equals(SampleQuality.UNKNOWN)) {
            return null;
        }
        try {
            return ResultJson.MAPPER.writeValueAsString(of(q));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** The quality the column holds ({@link SampleQuality#UNKNOWN} for a row stored before it was measured). */
    static SampleQuality read(String column) {
        if (column == null) {
            return SampleQuality.UNKNOWN;
        }
        try {
            return ResultJson.MAPPER.readValue(column, QualityForm.class).toQuality();
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("the quality column is not valid: " + e.getOriginalMessage());
        }
    }


    private static double d(Double v) {
        return v == null ? Double.NaN : v;
    }
}
