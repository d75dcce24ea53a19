package dev.accelbridge.reports.render;

import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.Fixtures;
import dev.accelbridge.reports.score.Scorer;
import org.junit.jupiter.api.Test;

import java.util.Optional;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A browser cell that executed on its backend and holds no timings (a row stopped before its figures, as a store may hold)
 * is a row of the browser-vs-native table with no figure and no interval, not a failure of the report.
 */
class UntimedCellTest {
    @Test
    void anExecutedCellWithoutTimingsHasNoIntervalInTheBrowserTable() {
        HostInfo h = Fixtures.host("alpha");
        var p = Fixtures.chromiumProv(h, false);
        RunResult untimed = RunResult.of("r1", Fixtures.t(0), Fixtures.id(ModelFamily.VISION, "convnet", BackendId.WASM, p), new Outcome.Stopped(BackendId.WASM, Optional.empty()),
                Status.PASSED, null, p, null, List.of(), List.of());
        Matrix m = new Matrix("r1", Fixtures.t(1), List.of(new Cell(untimed, Scorer.score(untimed, Double.NaN), Double.NaN, Double.NaN, null,
                List.of(), null, null)), Map.of(), Map.of());
        Section s = Sections.browserVsNative(m);
        assertThat(s.table().rows()).singleElement().satisfies(r -> assertThat(r.cells().get(3).text()).doesNotContain("["));
    }
}
