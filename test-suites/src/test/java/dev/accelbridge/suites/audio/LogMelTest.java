package dev.accelbridge.suites.audio;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

class LogMelTest {

    @Test
    void melScaleIsSlaneyAndInvertible() {
        assertThat(LogMel.hzToMel(1000)).isCloseTo(15.0, within(1e-12));
        assertThat(LogMel.hzToMel(500)).isCloseTo(7.5, within(1e-12));
        assertThat(LogMel.hzToMel(6400)).isCloseTo(42.0, within(1e-9)); // 1000 * 6.4 is 27 log steps above 15
        for (double hz : new double[] {0, 123, 999, 1000, 2500, 8000}) {
            assertThat(LogMel.melToHz(LogMel.hzToMel(hz))).isCloseTo(hz, within(1e-6));
        }
        assertThat(LogMel.melEdgesHz(80)[81]).isCloseTo(8000, within(1e-6));
    }

    @Test
    void dftOfABinCentredToneHasTheHannWindowedPower() {
        // A unit sine at 1000 Hz sits exactly on DFT bin 25 (40 Hz per bin). With a periodic Hann window the
        // amplitude there is N/4 = 100 (power 10000) and N/8 = 50 (power 2500) on each neighbour; nothing further out.
        double[][] p = LogMel.powerSpectrogram(Waveforms.tone(1000, 0.5, 1.0));
        double[] mid = p[p.length / 2];
        assertThat(mid[25]).isCloseTo(10000, within(1e-3));
        assertThat(mid[24]).isCloseTo(2500, within(1e-3));
        assertThat(mid[26]).isCloseTo(2500, within(1e-3));
        assertThat(mid[23]).isLessThan(1e-6);
        assertThat(mid[60]).isLessThan(1e-6);
    }

    @ParameterizedTest
    @ValueSource(ints = {30, 45, 52, 60, 68, 75})
    void aPureToneAtAFilterCentrePeaksInThatMelBin(int bin) {
        double hz = LogMel.centerHz(bin);
        // the bin its frequency maps to, from the mel formula: edges are evenly spaced in mel
        double step = LogMel.hzToMel(LogMel.F_MAX) / (LogMel.N_MELS + 1);
        int expected = (int) Math.round(LogMel.hzToMel(hz) / step) - 1;
        assertThat(expected).isEqualTo(bin);

        float[][] mel = LogMel.compute(Waveforms.tone(hz, 1.0, 0.5));
        assertThat(mel).hasNumberOfRows(80);
        assertThat(mel[0]).hasSize(100); // 1 s at a 10 ms hop
        int t = 50;
        int argmax = 0;
        for (int m = 1; m < 80; m++) {
            if (mel[m][t] > mel[argmax][t]) {
                argmax = m;
            }
        }
        assertThat(argmax).as("peak bin for %.1f Hz", hz).isEqualTo(expected);
    }

    @Test
    void whisperNormalisationFloorsEightDecadesBelowThePeak() {
        float[][] mel = LogMel.compute(Waveforms.chirpAndTones(1.0));
        float max = Float.NEGATIVE_INFINITY;
        float min = Float.POSITIVE_INFINITY;
        for (float[] row : mel) {
            for (float v : row) {
                max = Math.max(max, v);
                min = Math.min(min, v);
            }
        }
        assertThat(max - min).isLessThanOrEqualTo(2.0f + 1e-6f); // (8 decades) / 4
        assertThat(max).isBetween(0.0f, 2.0f);
    }
}
