package dev.accelbridge.reports.render;

import dev.accelbridge.core.Diagnostic;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.reports.history.ChangeKind;

import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * What every renderer draws.
 *
 * @param scope       the run id shown, or {@code latest per cell} when the report covers the whole store
 * @param generatedAt when the report was made
 * @param cells       every cell, sorted by suite, model, requested backend, browser, host
 * @param hosts       the hosts of the store, by fingerprint
 */
public record Matrix(String scope, Instant generatedAt, List<Cell> cells, Map<String, HostInfo> hosts) {
    public Matrix {
        cells = List.copyOf(cells);
        hosts = Map.copyOf(hosts);
    }

    /** Cells flagged as regressions. */
    public List<Cell> regressions() {
        return cells.stream().filter(c -> c.change() != null && c.change().kind() == ChangeKind.REGRESSION).toList();
    }

    /** One diagnostic of one cell. */
    public record Finding(Cell cell, Diagnostic diagnostic) {
    }

    /** Every cell's diagnostics, most severe first (the same list for every renderer). */
    public List<Finding> findings() {
        List<Finding> out = new ArrayList<>();
        for (Cell c : cells) {
            for (Diagnostic d : c.result().diagnostics()) {
                out.add(new Finding(c, d));
            }
        }
        out.sort(Comparator.comparing((Finding f) -> f.diagnostic().severity()));
        return out;
    }

    /** Cells reported as improvements. */
    public List<Cell> improvements() {
        return cells.stream().filter(c -> c.change() != null && c.change().kind() == ChangeKind.IMPROVEMENT).toList();
    }
}
