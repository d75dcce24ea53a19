package dev.accelbridge.reports.render;

import java.util.List;
import java.util.function.Function;

/**
 * What a report holds, in the one order {@link HtmlRenderer} and {@link MarkdownRenderer} both follow: declared once,
 * here, as the order of the constants. Each part says how each format shows it ({@link Form}), so a format that leaves a
 * part out says so on the part (Markdown cannot draw a chart) instead of keeping a list of its own.
 */
enum Part {
    /** The answer first: counts, changes, fallbacks, wrong outputs, where it ran (HTML: one block, as the dashboard shows it). */
    OVERVIEW(Form.DRAWN, Form.WRITTEN, Overview::sections),
    /** The matrix: HTML's grid of marks (drawn by the page's scripts), Markdown's table per host. */
    MATRIX(Form.DRAWN, Form.DRAWN, null),
    /** Browser vs native CPU: HTML's ratio chart; Markdown, which cannot draw it, writes the section's table. */
    BROWSER_VS_NATIVE(Form.DRAWN, Form.WRITTEN, one(Sections::browserVsNative)),
    /** Browser WebGPU beside its native WebGPU twin: a table, where a run has both. */
    WEBGPU_VS_NATIVE_WEBGPU(Form.WRITTEN, Form.WRITTEN, one(WebGpuTwinSection::of)),
    /** Each timed case's FLOP/s and weights read a second under its device's roof: a table, where a model's cost is known. */
    ROOF(Form.WRITTEN, Form.WRITTEN, one(RoofSection::of)),
    /** The width from which WebGPU overtakes wasm and native CPU along the width sweep: a table, where a run swept on WebGPU. */
    WEBGPU_PAYOFF(Form.WRITTEN, Form.WRITTEN, one(PayoffSection::of)),
    /** Generation's time to first token and tokens per second: a chart. */
    GENERATION_CHARTS(Form.DRAWN, Form.LEFT_OUT, null),
    /** p50 history per cell: a chart. */
    HISTORY(Form.DRAWN, Form.LEFT_OUT, null),
    GENERATION(Form.WRITTEN, Form.WRITTEN, one(GenerationSection::of)),
    READOUTS(Form.WRITTEN, Form.WRITTEN, one(ReadoutSection::of)),
    DTYPES(Form.WRITTEN, Form.WRITTEN, one(DtypeSection::of)),
    MEMORY(Form.WRITTEN, Form.WRITTEN, one(MemorySection::of)),
    CHANGES(Form.WRITTEN, Form.WRITTEN, one(Sections::changes)),
    POSITIONS(Form.WRITTEN, Form.WRITTEN, one(Sections::positions)),
    ENGINES(Form.WRITTEN, Form.WRITTEN, one(EngineFindings::of)),
    VERSIONS(Form.WRITTEN, Form.WRITTEN, one(Sections::versions)),
    /** Left out of HTML: report.html's reader has the dashboard's recommendations view ({@code recommend}). */
    RECOMMENDATIONS(Form.LEFT_OUT, Form.WRITTEN, one(Sections::recommendations)),
    BATCH_SCALING(Form.WRITTEN, Form.WRITTEN, one(Sections::batchScaling)),
    CONFORMANCE(Form.WRITTEN, Form.WRITTEN, one(Sections::conformance)),
    /** Each case's drill-down: HTML's bars and tables, Markdown's tables ({@link DrillDowns}). */
    DRILL_DOWN(Form.DRAWN, Form.DRAWN, null),
    DIAGNOSTICS(Form.WRITTEN, Form.WRITTEN, one(Findings::diagnostics)),
    FALLBACKS(Form.WRITTEN, Form.WRITTEN, one(Sections::fallbacks)),
    /** Left out of HTML: its table of all cells gives each cell's reason. */
    NOT_RUN(Form.LEFT_OUT, Form.WRITTEN, one(Sections::notRun)),
    /** Left out of HTML: its table of all cells gives each cell's provenance. */
    PROVENANCE(Form.LEFT_OUT, Form.WRITTEN, one(Sections::provenance)),
    /** Every cell in one table: HTML's, rendered on the server so it reads with scripts off; Markdown's matrix is text already. */
    CELLS(Form.DRAWN, Form.LEFT_OUT, null);

    /** How a format shows a part. */
    enum Form {
        /** Its sections, written as the format writes every {@link Section}. */
        WRITTEN,
        /** Drawn the format's own way (a chart, the grid, a table of its own). */
        DRAWN,
        /** Not in this format. */
        LEFT_OUT
    }

    private final Form html;
    private final Form markdown;
    private final Function<Matrix, List<Section>> sections;

    Part(Form html, Form markdown, Function<Matrix, List<Section>> sections) {
        this.html = html;
        this.markdown = markdown;
        this.sections = sections;
    }

    Form html() {
        return html;
    }

    Form markdown() {
        return markdown;
    }

    /** The part's sections as data, in order; empty for a part that is only drawn. */
    List<Section> sections(Matrix m) {
        return sections == null ? List.of() : sections.apply(m);
    }

    private static Function<Matrix, List<Section>> one(Function<Matrix, Section> section) {
        return m -> List.of(section.apply(m));
    }
}
