package dev.accelbridge.reports.store;

import dev.accelbridge.core.Decoding;
import dev.accelbridge.core.Dimension;
import dev.accelbridge.core.Dimensions;
import dev.accelbridge.core.MemoryUsage;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Timings;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.List;

import static dev.accelbridge.reports.store.Staged.bool;
import static dev.accelbridge.reports.store.Staged.real;
import static dev.accelbridge.reports.store.Staged.text;
import static dev.accelbridge.reports.store.Staged.whole;

/**
 * Writes results into the store: each {@link RunResult}'s row through the staged Appender, column by column in
 * {@link ResultRows#COLUMNS} order, and its timed samples; {@link ResultRows} reads them back.
 */
final class ResultInserts {
    private ResultInserts() {
    }

    /** Inserts the result row and its samples (the samples through DuckDB's Appender) on {@code c}. */
    static void insert(DuckDBConnection c, RunResult r) throws SQLException {
        insertAll(c, List.of(r));
    }

    /**
     * Inserts the results' rows ({@link Staged}) and their samples through DuckDB's Appender; their ids are drawn from the
     * results' sequence first, in one query.
     */
    static void insertAll(DuckDBConnection c, List<RunResult> results) throws SQLException {
        int n = results.size();
        if (n == 0) {
            return;
        }
        long[] ids = new long[n];
        try (PreparedStatement q = c.prepareStatement("SELECT nextval('result_id_seq') FROM range(?)")) {
            q.setLong(1, n);
            try (ResultSet rs = q.executeQuery()) {
                for (int k = 0; k < n; k++) {
                    rs.next();
                    ids[k] = rs.getLong(1);
                }
            }
        }
        Staged.insert(c, "results_in", "results", ResultRows.COLUMNS, "INSERT INTO", ap -> {
            for (int k = 0; k < n; k++) {
                ap.beginRow().append(ids[k]);
                append(ap, results.get(k));
                ap.endRow();
            }
        });
        boolean anySamples = results.stream().anyMatch(r -> r.timings().map(t -> t.samplesMs().length > 0).orElse(false));
        if (anySamples) {
            try (DuckDBAppender ap = c.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "samples")) {
                for (int k = 0; k < n; k++) {
                    RunResult r = results.get(k);
                    double[] s = r.timings().map(tm -> tm.samplesMs()).orElse(new double[0]);
                    for (int j = 0; j < s.length; j++) {
                        ap.beginRow().append(ids[k]).append(j).append(s[j]).endRow();
                    }
                }
            }
        }
    }

    /**
     * Appends {@code r}'s columns (all but the id) in {@link #ResultRows.COLUMNS} order, each in its column's type: the Appender
     * fills a row by position, so the steps below run in the columns' order and each appends its run of them.
     */
    private static void append(DuckDBAppender ap, RunResult r) throws SQLException {
        appendCase(ap, r);
        appendProvenance(ap, r.provenance());
        appendTimings(ap, r.timings().orElse(null));
        MemoryUsage m = r.memory();
        ap.append(m.rssBefore());
        ap.append(m.rssAfter());
        ap.append(m.rssPeak());
        appendParity(ap, r.parity().orElse(null));
        appendDocuments(ap, r);
    }

    /** From run_id to reason: the run, the case's identity (one column per dimension), and its outcome. */
    private static void appendCase(DuckDBAppender ap, RunResult r) throws SQLException {
        text(ap, r.runId());
        for (Dimension<?> d : Dimensions.all()) {
            Object v = d.value(r.id());
            if (v instanceof Integer i) {
                ap.append(i.intValue());
            } else {
                text(ap, (String) v);
            }
        }
        text(ap, r.actual().map(ba -> ba.id()).orElse(null));
        text(ap, r.status().name());
        text(ap, r.reason());
    }

    /** From browser to os, all null without a provenance. */
    private static void appendProvenance(DuckDBAppender ap, Provenance p) throws SQLException {
        text(ap, p == null ? null : p.browser());
        text(ap, p == null ? null : p.browserVersion());
        text(ap, p == null ? null : p.driver());
        text(ap, p == null ? null : p.adapter());
        bool(ap, p == null ? null : p.softwareAdapter());
        text(ap, p == null ? null : p.host());
        text(ap, p == null ? null : p.hostFingerprint());
        text(ap, p == null ? null : p.os());
    }

    /** From load_ms to warmups, all null without timings. */
    private static void appendTimings(DuckDBAppender ap, Timings t) throws SQLException {
        real(ap, t == null ? null : t.loadMs());
        real(ap, t == null ? null : t.firstMs());
        real(ap, t == null ? null : t.p50Ms());
        real(ap, t == null ? null : t.p90Ms());
        real(ap, t == null ? null : t.p99Ms());
        real(ap, t == null ? null : t.meanMs());
        real(ap, t == null ? null : t.stddevMs());
        real(ap, t == null ? null : t.throughputPerSec());
        whole(ap, t == null ? null : t.iterations());
        whole(ap, t == null ? null : t.warmups());
    }

    /** From max_abs_err to tolerance_basis, null without a parity check (non_finite: 0). */
    private static void appendParity(DuckDBAppender ap, Parity q) throws SQLException {
        real(ap, q == null ? null : q.maxAbsErr());
        real(ap, q == null ? null : q.maxRelErr());
        real(ap, q == null ? null : q.cosine());
        real(ap, q == null ? null : q.tolerance());
        bool(ap, q == null ? null : q.within());
        text(ap, q == null ? null : q.against());
        ap.append(q == null ? 0L : q.nonFinite());
        real(ap, q == null ? null : q.rtol());
        real(ap, q == null ? null : q.budget());
        text(ap, q == null ? null : q.basis());
    }

    /** From fallback_path to outcome: the columns held as JSON text, with started_at, the attempts and whether the figures are another cell's among them. */
    private static void appendDocuments(DuckDBAppender ap, RunResult r) throws SQLException {
        Provenance p = r.provenance();
        Timings t = r.timings().orElse(null);
        text(ap, ResultJson.fallbackPath(r.fallbackPath()).toString());
        text(ap, ResultJson.strings(r.warnings()).toString());
        text(ap, p == null ? null : ResultJson.provenance(p).toString());
        if (r.startedAt() == null) {
            ap.appendNull();
        } else {
            ap.append(ResultRows.ts(r.startedAt()));
        }
        text(ap, r.variantParity() == null ? null : ResultJson.parity(r.variantParity()).toString());
        text(ap, AnalysisJson.column(r.analysis()));
        ap.append(r.attempts().count());
        text(ap, r.attempts().earlier().isEmpty() ? null : ResultJson.strings(r.attempts().earlier()).toString());
        text(ap, t == null ? null : QualityForm.column(t.quality()));
        text(ap, t != null && t.figures() instanceof Decoding g ? DecodingForm.column(g) : null);
        ap.append(r.sharedFigures());
        text(ap, MemoryForm.column(r.memory()));
        text(ap, r.outcome().kind().name());
    }
}
