package dev.accelbridge.reports.render;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.Fixtures;
import dev.accelbridge.reports.query.CaseFilter;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** Versions as dimensions in the views: two onnxruntime-web versions compared cell by cell, filtered, and as columns. */
class VersionsTest {
    static final HostInfo H = Fixtures.host("alpha");
    static final RunResult WASM_OLD = Fixtures.passed("r1", Fixtures.t(0), H, ModelFamily.VISION, "convnet", BackendId.WASM,
            Fixtures.chromiumProv(H, "1.18.0"), Fixtures.samples(1.0, 0.05, 40, 1));
    static final RunResult WASM_NEW = Fixtures.passed("r1", Fixtures.t(1), H, ModelFamily.VISION, "convnet", BackendId.WASM,
            Fixtures.chromiumProv(H, "1.30.0"), Fixtures.samples(2.0, 0.05, 40, 2));
    static final RunResult GPU_OLD = Fixtures.notRun("r1", Fixtures.t(2), ModelFamily.VISION, "convnet", BackendId.WEBGPU,
            Status.UNSUPPORTED, "This onnxruntime-web has no webgpu execution provider that starts in this browser", Fixtures.chromiumProv(H, "1.18.0"));
    static final RunResult GPU_NEW = Fixtures.passed("r1", Fixtures.t(3), H, ModelFamily.VISION, "convnet", BackendId.WEBGPU,
            Fixtures.chromiumProv(H, "1.30.0"), Fixtures.samples(80, 0.05, 40, 3));
    static final RunResult CPU = Fixtures.passed("r1", Fixtures.t(4), H, ModelFamily.VISION, "convnet", BackendId.CPU,
            Fixtures.nativeProv(H), Fixtures.samples(0.5, 0.05, 40, 4));

    @Test
    void twoOnnxRuntimeWebVersionsAreComparedCellByCellOnEveryOtherDimension() {
        List<RunResult> all = List.of(WASM_OLD, WASM_NEW, GPU_OLD, GPU_NEW, CPU);
        Comparison.By by = Comparison.By.parse("ort-web");
        assertThat(by).isEqualTo(Comparison.By.axis(new dev.accelbridge.browser.page.OrtWebAxis()));
        assertThat(Comparison.By.parse("ortWebVersion")).isEqualTo(by);
        Comparison c = Comparison.of(by, "1.18.0", "1.30.0", CaseFilter.parse(Map.of("ortWebVersion", List.of("1.18.0"))).apply(all),
                CaseFilter.parse(Map.of("ort-web", List.of("1.30.0"))).apply(all));
        assertThat(c.rows()).hasSize(2).allSatisfy(r -> assertThat(r.a()).isNotNull().extracting(x -> x.id().lane().version("browserMajor")).isEqualTo("156"));
        Comparison.Row gpu = c.rows().stream().filter(r -> r.a().requested() == BackendId.WEBGPU).findFirst().orElseThrow();
        assertThat(gpu.a().status()).isEqualTo(Status.UNSUPPORTED);
        assertThat(gpu.b().status()).isEqualTo(Status.PASSED);
        assertThat(gpu.ratio()).isNaN(); // a status change, not a speed
        Comparison.Row wasm = c.rows().stream().filter(r -> r.a().requested() == BackendId.WASM).findFirst().orElseThrow();
        assertThat(wasm.ratio()).isBetween(1.8, 2.2);
        assertThat(wasm.significant()).isTrue();
        assertThat(wasm.label()).contains("[chromium@156]").doesNotContain("1.30.0");
        assertThat(ComparisonJson.json(c).get("by").asText()).isEqualTo("ortWebVersion");
    }

    @Test
    void aFilterByAVersionLeavesOutWhatHasNone() {
        // the native result has no onnxruntime-web version: no filter names it (it used to throw on the unknown value)
        assertThat(CaseFilter.parse(Map.of("ortWebVersion", List.of("1.30.0"))).apply(List.of(WASM_OLD, WASM_NEW, CPU)))
                .containsExactly(WASM_NEW);
        assertThat(CaseFilter.parse(Map.of("ortVersion", List.of("1.29.0"))).apply(List.of(WASM_OLD, CPU))).containsExactly(CPU);
    }

    @Test
    void eachVersionIsAColumnOfItsOwnAndTheReportComparesThem() {
        Matrix m = new Matrix("test", Fixtures.t(10), List.of(WASM_OLD, WASM_NEW, GPU_OLD, GPU_NEW, CPU).stream()
                .map(r -> new Cell(r, dev.accelbridge.reports.score.Scorer.score(r, Double.NaN), Double.NaN, Double.NaN, null, List.of(),
                        null, null)).toList(), Map.of(), Map.of());
        assertThat(m.cells()).extracting(Cell::column).contains("wasm [chromium 156.0.8078.73 · ort-web 1.18.0]",
                "wasm [chromium 156.0.8078.73 · ort-web 1.30.0]", "cpu [native · ort 1.29.0]").doesNotHaveDuplicates();
        Section s = Sections.versions(m);
        assertThat(s.hidden()).isFalse();
        assertThat(s.table().rows()).hasSize(2);
        Section.Row first = s.table().rows().get(0);
        assertThat(first.cls()).isEqualTo("improvement"); // UNSUPPORTED → PASSED comes first
        assertThat(first.cells()).extracting(Section.Entry::text).contains("onnxruntime-web version", "1.18.0 → 1.30.0", "UNSUPPORTED → PASSED");
        assertThat(s.table().rows().get(1).cells().get(4).text()).startsWith("×").contains("significant");
        // one version of everything: nothing to compare, no section
        Matrix one = new Matrix("test", Fixtures.t(10), List.of(m.cells().get(1), m.cells().get(4)), Map.of(), Map.of());
        assertThat(Sections.versions(one).hidden()).isTrue();
    }
}
