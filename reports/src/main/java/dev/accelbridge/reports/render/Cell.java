package dev.accelbridge.reports.render;

import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.history.Change;
import dev.accelbridge.reports.score.Score;
import dev.accelbridge.reports.store.CaseKey;

import java.util.List;

/**
 * One cell of the matrix: a case on a host, its newest result in the report's scope, and what is derived from it.
 *
 * @param result          the result shown
 * @param score           its score
 * @param cpuP50Ms        the native CPU p50 of the same model/input on the same host in the same scope (NaN if none)
 * @param requestedP50Ms  for a FELL_BACK cell: the requested backend's p50 from the latest run where it worked on
 *                        this host (the fallback's cost); NaN when there is none or no fallback happened
 * @param change          comparison with the previous run of this cell (null when there is none)
 * @param history         every result of this cell, oldest first
 */
public record Cell(RunResult result, Score score, double cpuP50Ms, double requestedP50Ms, Change change,
                   List<HistoryPoint> history) {
    public Cell {
        history = List.copyOf(history);
    }

    /** The case key. */
    public CaseKey key() {
        return CaseKey.of(result);
    }

    /** Host name, or "?" when the provenance has none. */
    public String host() {
        return result.provenance() == null || result.provenance().host() == null ? "?" : result.provenance().host();
    }

    /** "webgpu [chromium 156.0…]" or "cpu [native]". */
    public String column() {
        return result.requested().id() + " [" + (result.provenance() == null ? "native" : result.provenance().browserLabel()) + "]";
    }

    /** "suite/model". */
    public String row() {
        return result.suite().id() + "/" + result.model();
    }

    /** p50 of the result, or NaN. */
    public double p50() {
        return result.timings() == null ? Double.NaN : result.timings().p50Ms();
    }

    /** This cell's p50 over the native CPU p50 (&gt; 1: slower than native), NaN when either is missing. */
    public double vsNative() {
        double p = p50();
        return p > 0 && cpuP50Ms > 0 ? p / cpuP50Ms : Double.NaN;
    }
}
