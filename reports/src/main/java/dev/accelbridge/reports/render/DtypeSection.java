package dev.accelbridge.reports.render;

import dev.accelbridge.core.Precision;
import dev.accelbridge.reports.recommend.DtypeRecommendation;
import dev.accelbridge.reports.recommend.DtypeRecommender;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The report's section on which dtype variant of a model to ship to each backend and target ({@link DtypeRecommender} at
 * its default closeness): only models run in more than one dtype.
 */
final class DtypeSection {
    private DtypeSection() {
    }

    static Section of(Matrix m) {
        List<Section.Row> rows = new ArrayList<>();
        for (DtypeRecommendation r : DtypeRecommender.recommend(m.cells().stream().map(Cell::result).toList(),
                DtypeRecommender.DEFAULT_MIN_CLOSENESS)) {
            var b = r.best();
            rows.add(Section.Row.of(b == null ? "warn" : null, r.host(), r.model(), r.backend() + " [" + r.target() + "]"
                            + (r.options().equals("default") ? "" : " " + r.options()),
                    b == null ? "none qualifies" : b.precision().id(),
                    b == null ? "" : String.format(Locale.ROOT, "%.4f (%s)", b.closeness(), b.closenessOf()),
                    b == null || Double.isNaN(b.speedupVsFp32()) || b.precision() == Precision.FP32 ? ""
                            : b.speedupInterval() == null ? String.format(Locale.ROOT, "%.2fx (no interval)", b.speedupVsFp32())
                            : String.format(Locale.ROOT, "%.2fx [%.2f-%.2f]", b.speedupVsFp32(), b.speedupInterval().lo(),
                            b.speedupInterval().hi()),
                    r.skipped().stream().map(s -> s.precision().id() + ": " + s.why()).collect(Collectors.joining("; "))));
        }
        return Section.table("dtypes", "Which dtype to ship (variants within cosine " + DtypeRecommender.DEFAULT_MIN_CLOSENESS
                        + " of fp32 native)",
                rows.isEmpty() ? null : "The fastest variant with no defect (its verdict against its own native CPU run) whose "
                        + "user-visible output (the lowest cosine of the readout, else of the raw outputs) is within the stated cosine "
                        + "of fp32 run natively on the CPU, and faster than fp32 by its interval (else fp32); speed-up against fp32 on "
                        + "the same backend, session options and scenario, with its 95 % interval. `accelbridge recommend --dtypes --within C` for another bound.",
                new Section.Table(List.of("host", "model", "backend [target]", "ship", "closeness", "vs fp32", "skipped"), rows), null);
    }
}
