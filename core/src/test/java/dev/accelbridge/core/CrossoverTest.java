package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.within;

/** Where one series overtakes another along a sweep, on constructed medians. */
class CrossoverTest {
    private static Crossover.Point p(int size, double challenger, double incumbent) {
        return new Crossover.Point(size, challenger, incumbent);
    }

    @Test
    void itOvertakesFromTheSizeAfterWhichItStaysAhead() {
        Crossover c = Crossover.of(List.of(p(1024, 4, 40), p(64, 9, 1), p(256, 6, 5), p(512, 5, 12), p(128, 8, 2))).orElseThrow();
        assertThat(c.from()).contains(512);
        assertThat(c.ratioThere()).isCloseTo(2.4, within(1e-9));
        assertThat(c.largest()).isEqualTo(1024);
        assertThat(c.words("width")).isEqualTo("from width 512 (2.40× faster there)");
    }

    @Test
    void aLeadThatIsLostAgainIsNoCrossingThere() {
        // ahead at 128, behind at 256, ahead from 512: it overtakes from 512
        assertThat(Crossover.of(List.of(p(64, 9, 1), p(128, 1, 2), p(256, 6, 5), p(512, 5, 12))).orElseThrow().from()).contains(512);
    }

    @Test
    void neverAheadIsSaidAsNotWithinTheSweepAndTooFewPointsAreNoAnswer() {
        Crossover c = Crossover.of(List.of(p(64, 9, 1), p(128, 8, 2))).orElseThrow();
        assertThat(c.from()).isEmpty();
        assertThat(c.words("width")).isEqualTo("not within the sweep (up to width 128)");
        assertThat(Crossover.of(List.of(p(64, 9, 1), p(128, Double.NaN, 2)))).isEmpty();
    }

    @Test
    void theSweepsNamesAreItsOwn() {
        assertThat(WidthSweep.width(WidthSweep.name(512))).hasValue(512);
        assertThat(WidthSweep.width("bert-sweep-w500")).isEmpty();
        assertThat(WidthSweep.width("bert-base")).isEmpty();
        assertThat(WidthSweep.width(null)).isEmpty();
    }
}
