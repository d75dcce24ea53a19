package dev.accelbridge.reports.render;

import dev.accelbridge.core.Acceleration;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.Interval;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.SpeedStanding;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.VersionAxes;
import dev.accelbridge.core.VersionAxis;
import dev.accelbridge.reports.history.Change;
import dev.accelbridge.reports.query.CaseFilter;
import dev.accelbridge.reports.score.Score;

import java.util.List;

/**
 * One cell of the matrix: a case on a host, its newest result in the report's scope, and what is derived from it.
 *
 * @param result          the result shown
 * @param score           its score
 * @param cpuP50Ms        the native CPU p50 of the same model/input on the same host in the same scope (NaN if none)
 * @param requestedP50Ms  for a FELL_BACK cell: the requested backend's p50 from the latest run where it worked on
 *                        this host (the fallback's cost); NaN when there is none or no fallback happened
 * @param change          comparison of this run with the cell's earlier runs (null when it did not execute)
 * @param history         every result of this cell, oldest first
 * @param nativeThreads   the intra-op threads of the native CPU reference (null when unknown), shown beside every ratio
 * @param vsNativeCi      the bootstrap 95 % interval of {@link #vsNative()} from both sides' samples, or null
 *                        (no reference, too few samples, or the reference itself)
 */
@PublicApi
public record Cell(RunResult result, Score score, double cpuP50Ms, double requestedP50Ms, Change change,
                   List<HistoryPoint> history, Integer nativeThreads, Interval vsNativeCi) {
    public Cell {
        history = List.copyOf(history);
    }

    /** The case identity. */
    public CaseId key() {
        return result.id();
    }

    /** Host name, or "?" when the provenance has none. */
    public String host() {
        return CaseFilter.hostName(result);
    }

    /**
     * "webgpu [chromium 156.0… · ort-web 1.30.0]" or "cpu [native · ort 1.29.0]": the backend in its lane, with its versions
     * (a lane's identity; a browser's major is in its label), so two versions of one runtime are two columns.
     */
    public String column() {
        return result.id().requested().id() + " [" + browserLabel() + versionsLabel() + "]";
    }

    /** The browser the cell ran in, with its build ("chromium 156.0…", "native"): the column's second level. */
    public String browserLabel() {
        return result.provenance() == null ? result.id().lane().id() : result.provenance().browserLabel();
    }

    /** The lane's runtime versions ("· ort-web 1.30.0"), or "": the column's third level. */
    public String versionsLabel() {
        StringBuilder v = new StringBuilder();
        for (VersionAxis a : VersionAxes.all()) {
            String at = result.id().lane().version(a);
            if (at != null && !a.withinBrowser()) {
                v.append(" · ").append(a.shortName()).append(' ').append(at);
            }
        }
        return v.toString();
    }

    /**
     * The backend that produced this cell's figures in its lane: {@link #column()} when it ran as asked, else
     * "webnn-gpu → wasm [chromium 156.0…]", so a fallen-back figure is never shown under the backend it did not run on.
     */
    public String ranOn() {
        var id = result.id();
        // a figure another backend made is named by it
        return result.actual().filter(b -> b != id.requested())
                .map(b -> id.requested().id() + " → " + b.id() + column().substring(id.requested().id().length())).orElse(column());
    }

    /**
     * Whether the cell takes part in speed rankings (the browser-vs-native chart): it executed on the backend asked for.
     * A fallen-back cell's figure belongs to another backend, so it is shown under {@link #ranOn()} and never ranked; a
     * figure that does not stand as a speed ({@link dev.accelbridge.core.SpeedStanding}: a software adapter's, a floored one)
     * is not ranked either.
     */
    public boolean ranked() {
        return result.status() != Status.FELL_BACK && SpeedStanding.of(result).counts();
    }

    /** Whether the cell ran WebGPU on a software adapter (the CPU posing as a GPU): a verdict, never a GPU's speed. */
    public boolean softwareAdapter() {
        return result.status().executed() && score.acceleration() == Acceleration.SOFTWARE_ADAPTER;
    }

    /** Whether the cell's figures sit on a latency floor (a polled readback, the timer): never ranked. */
    public boolean floored() {
        return result.timings().map(t -> t.quality().floored()).orElse(false);
    }

    /** "suite/model", with the precision and batch size when they are not fp32 and 1 ("text/bert fp16 b4"). */
    public String row() {
        var id = result.id();
        return id.row() + id.dimensionsTag();
    }

    /** p50 of the result, or NaN. */
    public double p50() {
        return result.timings().map(tm -> tm.p50Ms()).orElse(Double.NaN);
    }

    /** This cell's p50 over the native CPU p50 (&gt; 1: slower than native), NaN when either is missing. */
    public double vsNative() {
        double p = p50();
        return p > 0 && cpuP50Ms > 0 ? p / cpuP50Ms : Double.NaN;
    }
}
