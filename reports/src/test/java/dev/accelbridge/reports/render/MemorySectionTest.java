package dev.accelbridge.reports.render;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.MemoryUsage;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.Fixtures;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The memory section: a case's GPU ledger, heaps and processes beside its p50, a dash where nothing was measured. */
class MemorySectionTest {
    static final HostInfo H = Fixtures.host("alpha");

    private static RunResult with(RunResult r, MemoryUsage m) {
        return RunResult.of(r.runId(), r.startedAt(), r.id(), r.outcome(), r.status(), r.reason(), r.provenance(), m, r.fallbackPath(), r.warnings());
    }

    private static Matrix matrix(RunResult... results) {
        return new Matrix("r1", Fixtures.t(2), List.of(results).stream().map(r -> new Cell(r, dev.accelbridge.reports.score.Scorer.score(r,
                Double.NaN), Double.NaN, Double.NaN, null, List.of(), null, null)).toList(), Map.of(), Map.of());
    }

    @Test
    void eachMeasuredCaseShowsWhatItHeldAndADashForWhatWasNotMeasured() {
        RunResult gpu = with(Fixtures.passed("r1", Fixtures.t(0), H, ModelFamily.TEXT, "bert-mini", BackendId.WEBGPU,
                Fixtures.chromiumProv(H, true), Fixtures.samples(3, 0.01, 20, 1)), Fixtures.MEASURED_MEMORY);
        RunResult nothing = with(Fixtures.passed("r1", Fixtures.t(1), H, ModelFamily.TEXT, "bert-mini", BackendId.WASM,
                Fixtures.chromiumProv(H, false), Fixtures.samples(1, 0.01, 20, 2)), MemoryUsage.UNKNOWN);
        Section s = MemorySection.of(matrix(gpu, nothing));
        assertThat(s.table().rows()).as("a case with no memory figure has no row").singleElement().satisfies(r ->
                assertThat(r.cells()).extracting(Section.Entry::text).contains("6.1 MiB (may read low: JSEP's pool)", "80 B", "4.0 MiB of 1.0 GiB",
                        "33.3 MiB (+5.6 MiB)", "18.4 MiB", "650.5 MiB / 163.2 MiB", "2.9 KiB"));
        assertThat(s.intro()).contains("createBuffer", "/proc/PID/statm", "A dash: not measured");
        assertThat(MarkdownRenderer.render(matrix(gpu, nothing))).contains("## Memory: what each case held, beside its p50");
        // nothing measured anywhere: no section
        assertThat(MemorySection.of(matrix(nothing)).table().rows()).isEmpty();
    }
}
