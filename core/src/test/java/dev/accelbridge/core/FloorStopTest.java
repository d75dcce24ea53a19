package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class FloorStopTest {
    /** Firefox's WebGPU single passes here: each waits for a readback polled every ~100 ms. */
    static final double[] POLLED = {100.1, 100.2, 200.4, 501.0};

    @Test
    void threeRunsOnAPolledReadbackStopALoopWithALeastDuration() {
        assertThat(FloorStop.stops(java.util.Arrays.copyOf(POLLED, 2), 0.02, 100.0, false)).as("two runs establish nothing").isFalse();
        assertThat(FloorStop.stops(java.util.Arrays.copyOf(POLLED, 3), 0.02, 100.0, false)).isTrue();
        assertThat(FloorStop.stops(java.util.Arrays.copyOf(POLLED, 3), 0.02, 100.0, true)).as("exact counts stay exact").isFalse();
    }

    @Test
    void aSoftwareAdaptersFastReadbackPutsNoFloorUnderItsRuns() {
        // Chromium on SwiftShader: an empty readback of 0.4 ms under runs of 50 to 500 ms
        double[] swiftShader = {51.2, 49.8, 50.4, 50.9, 118.3, 117.6, 508.0, 512.2, 505.9, 510.1};
        assertThat(FloorStop.stops(swiftShader, 0.005, 0.4, false)).isFalse();
        // the WebNN shell's 2.3 ms readback under 50 ms runs: near multiples by chance, not a floor
        double[] shell = {50.6, 48.3, 55.2, 52.9, 46.0};
        assertThat(FloorStop.stops(shell, 0.005, 2.3, false)).isFalse();
    }

    @Test
    void aGenerationsStepsShowTheFloorWhereItsWholeGenerationsCannot() {
        // whole generations of ~11.7 s are no multiple of 100 ms anyone could tell from chance
        double[] generations = {11736.5, 11790.2, 11702.8};
        assertThat(FloorStop.stops(generations, 0.02, 100.0, false)).isFalse();
        // their steps after the first: each on a multiple of the poll
        double[] steps = {1000.4, 999.8, 1100.2, 1000.1, 900.3, 1000.0, 1001.2, 999.1, 1000.6, 1100.9, 1000.2};
        assertThat(FloorStop.stops(steps, 0.02, 100.0, false)).isTrue();
    }

    @Test
    void aMedianUnderFiveTicksSitsOnTheTimerButNeverStopsALoop() {
        // found when tried: a tiny wasm model stopped after 40 of the runs its least duration asked for, against a timer step
        // measured coarser on that launch; a sub-tick figure is its many samples' mean, so the timer's floor only labels
        double[] tiny = {0.02, 0.04, 0.02, 0.02};
        assertThat(LatencyFloor.of(tiny, 0.02, Double.NaN)).isEqualTo(0.02);
        assertThat(FloorStop.stops(tiny, 0.02, Double.NaN, false)).isFalse();
        double[] fine = {0.5, 0.52, 0.49};
        assertThat(FloorStop.stops(fine, 0.02, Double.NaN, false)).isFalse();
    }
}
