package dev.accelbridge.tools.cli;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.RunResult;
import org.junit.jupiter.api.Test;

import java.util.List;

import static dev.accelbridge.reports.Fixtures.chromiumProv;
import static dev.accelbridge.reports.Fixtures.host;
import static dev.accelbridge.reports.Fixtures.passed;
import static dev.accelbridge.reports.Fixtures.samples;
import static dev.accelbridge.reports.Fixtures.t;
import static org.assertj.core.api.Assertions.assertThat;

/** {@code run}'s table says in each row's note what limits its figure, as the reports do. */
class ResultTableTest {
    private final HostInfo h = host("alpha");

    private RunResult copy(int minute, double median) {
        return passed("r1", t(minute), h, ModelFamily.TEXT, "minilm", BackendId.WASM, chromiumProv(h, false), samples(median, 0.01, 60, minute));
    }

    @Test
    void aCopyMeasuredApartAndAWarmUpThatDidNotSettleSaySoInTheTable() {
        // found: the second of three copies of one model measured twice as slow, and its row said nothing
        RunResult first = copy(1, 61.3);
        RunResult second = copy(2, 125.2);
        RunResult unsettled = second.withTimings(second.timings().orElseThrow().withQuality(second.timings().orElseThrow().quality().withWarmup(10_000, false, -0.2)));
        String table = ResultTable.render(List.of(first, unsettled, copy(3, 60.6)), 400, false);
        assertThat(table).contains("position-dependent: ").contains(" over 3 copies of this work");
        assertThat(table.lines().filter(l -> l.contains(" 125 "))).singleElement().asString().contains("warm-up");
        assertThat(table.lines().filter(l -> l.contains("position-dependent"))).hasSize(3);
    }

    @Test
    void aSettledFigureWithNothingApartHasNoCaveat() {
        String table = ResultTable.render(List.of(copy(1, 61.3), copy(2, 61.0)), 400, false);
        assertThat(table).doesNotContain("position-dependent").doesNotContain("settle").doesNotContain("steady");
    }
}
