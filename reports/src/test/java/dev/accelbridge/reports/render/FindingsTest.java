package dev.accelbridge.reports.render;

import dev.accelbridge.core.Status;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** How findings are told apart and a cell's figure is shortened (pure logic). */
class FindingsTest {
    @Test
    void oneFindingReadsTheSameWhateverItsFiguresAndIds() {
        // seen in the default run's report: one row per cell for what is one finding
        assertThat(Findings.normalised("the timed samples' second half differs from the first by −26 %"))
                .isEqualTo(Findings.normalised("the timed samples' second half differs from the first by -13 %"))
                .isEqualTo("the timed samples' second half differs from the first by # %");
        assertThat(Findings.normalised("No page joined for launch slot a6fdb4a99a3f within 60 s"))
                .isEqualTo(Findings.normalised("No page joined for launch slot 0b1c2d3e4f5a within 60 s"));
        assertThat(Findings.normalised("max abs err 3.5e7 > tolerance 1e-3")).isEqualTo("max abs err # > tolerance #");
        // different kinds stay apart
        assertThat(Findings.normalised("navigator.ml undefined")).isNotEqualTo(Findings.normalised("No available adapters."));
        assertThat(Findings.normalised(null)).isEmpty();
    }

    @Test
    void aCellShowsOneMarkAndAFigureOfAFewCharacters() {
        assertThat(Glyph.figure(0.583)).isEqualTo("0.58");
        assertThat(Glyph.figure(17.44)).isEqualTo("17.4");
        assertThat(Glyph.figure(173.2)).isEqualTo("173");
        assertThat(Glyph.figure(11_712)).isEqualTo("11.7k");
        assertThat(Glyph.figure(Double.NaN)).isEmpty();
        for (Status s : Status.values()) {
            assertThat(Glyph.of(s)).hasSize(1);
            assertThat(Glyph.LEGEND).contains(Glyph.of(s));
        }
    }
}
