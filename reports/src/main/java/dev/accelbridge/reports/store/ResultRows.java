package dev.accelbridge.reports.store;

import dev.accelbridge.core.Attempts;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.Dimension;
import dev.accelbridge.core.Dimensions;
import dev.accelbridge.core.MemoryUsage;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.Timings;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Result rows and their samples: how a {@link RunResult} becomes a row (and back), and the one place that binds a
 * {@link CaseId} to the columns that hold it ({@link #CASE_WHERE}, {@link #bindCase}), both from {@link Dimensions}.
 */
final class ResultRows {
    /** The identity columns, in {@link #bindCase} order: one term per {@link Dimensions#ALL}. */
    static final String CASE_WHERE = where(true);
    /** Same, without the requested backend (what a fallback's cost looks up). */
    static final String CASE_WHERE_ANY_REQUESTED = where(false);
    static final String COLUMNS = "id, run_id, " + Dimensions.ALL.stream().map(Dimension::column).collect(Collectors.joining(", "))
            + ", actual, status, reason, browser, browser_version, driver, adapter, software_adapter, host, "
            + "host_fingerprint, os, load_ms, first_ms, p50_ms, p90_ms, p99_ms, mean_ms, stddev_ms, throughput_per_sec, "
            + "iterations, warmups, rss_before, rss_after, rss_peak, max_abs_err, max_rel_err, cosine, tolerance, "
            + "parity_within, parity_against, non_finite, rtol, tolerance_budget, tolerance_basis, fallback_path, warnings, provenance, "
            + "started_at, variant_parity, analysis, attempts, earlier_attempts, quality";
    private static final int INSERTED = COLUMNS.split(",").length - 1;

    private final Db db;

    ResultRows(Db db) {
        this.db = db;
    }

    /** Binds the case's identity at {@code at}..; returns the next index. {@code withRequested} picks the WHERE form. */
    static int bindCase(PreparedStatement ps, int at, CaseId id, boolean withRequested) throws SQLException {
        int i = at;
        for (Dimension<?> d : Dimensions.ALL) {
            if (withRequested || d != Dimensions.REQUESTED) {
                ps.setObject(i++, d.value(id));
            }
        }
        return i;
    }

    private static String where(boolean withRequested) {
        return Dimensions.ALL.stream().filter(d -> withRequested || d != Dimensions.REQUESTED)
                .map(d -> d.column() + (d.nullable() ? " IS NOT DISTINCT FROM ?" : " = ?")).collect(Collectors.joining(" AND "));
    }

    /** Inserts the result row and its samples (the samples through DuckDB's Appender) on {@code c}. */
    static void insert(DuckDBConnection c, RunResult r) throws SQLException {
        insertAll(c, List.of(r));
    }

    /** Rows per INSERT statement: DuckDB's cost is per statement (2.6 ms for a one-row INSERT here), not per row. */
    private static final int ROWS_PER_STATEMENT = 64;

    /**
     * Inserts the results' rows, many to a statement, and all their samples through one Appender. Their ids are drawn
     * from the results' sequence first, in one query, so no row needs {@code RETURNING}. Measured here: 358 results took
     * 920 ms one statement each (all of it in DuckDB's execution of the statement).
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
        String row = "(?," + "?,".repeat(INSERTED - 1) + "?)";
        for (int from = 0; from < n; from += ROWS_PER_STATEMENT) {
            int to = Math.min(n, from + ROWS_PER_STATEMENT);
            String sql = "INSERT INTO results (" + COLUMNS + ") VALUES " + String.join(",", java.util.Collections.nCopies(to - from, row));
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                for (int k = from; k < to; k++) {
                    int base = (k - from) * (INSERTED + 1) + 1;
                    ps.setLong(base, ids[k]);
                    bind(ps, base + 1, results.get(k));
                }
                ps.executeUpdate();
            }
        }
        boolean anySamples = results.stream().anyMatch(r -> r.timings() != null && r.timings().samplesMs().length > 0);
        if (anySamples) {
            try (DuckDBAppender ap = c.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "samples")) {
                for (int k = 0; k < n; k++) {
                    RunResult r = results.get(k);
                    double[] s = r.timings() == null ? new double[0] : r.timings().samplesMs();
                    for (int j = 0; j < s.length; j++) {
                        ap.beginRow().append(ids[k]).append(j).append(s[j]).endRow();
                    }
                }
            }
        }
    }

    /** Binds {@code r}'s columns (all but the id) from parameter {@code base} on. */
    private static void bind(PreparedStatement ps, int base, RunResult r) throws SQLException {
        {
            Provenance p = r.provenance();
            Timings t = r.timings();
            Parity q = r.parity();
            MemoryUsage m = r.memory();
            CaseId k = r.id();
            ps.setString(base, r.runId());
            int i = bindCase(ps, base + 1, k, true);
            ps.setString(i++, r.actual() == null ? null : r.actual().id());
            ps.setString(i++, r.status().name());
            ps.setString(i++, r.reason());
            ps.setString(i++, p == null ? null : p.browser());
            ps.setString(i++, p == null ? null : p.browserVersion());
            ps.setString(i++, p == null ? null : p.driver());
            ps.setString(i++, p == null ? null : p.adapter());
            setBool(ps, i++, p == null ? null : p.softwareAdapter());
            ps.setString(i++, p == null ? null : p.host());
            ps.setString(i++, p == null ? null : p.hostFingerprint());
            ps.setString(i++, p == null ? null : p.os());
            setDouble(ps, i++, t == null ? null : t.loadMs());
            setDouble(ps, i++, t == null ? null : t.firstMs());
            setDouble(ps, i++, t == null ? null : t.p50Ms());
            setDouble(ps, i++, t == null ? null : t.p90Ms());
            setDouble(ps, i++, t == null ? null : t.p99Ms());
            setDouble(ps, i++, t == null ? null : t.meanMs());
            setDouble(ps, i++, t == null ? null : t.stddevMs());
            setDouble(ps, i++, t == null ? null : t.throughputPerSec());
            setInt(ps, i++, t == null ? null : t.iterations());
            setInt(ps, i++, t == null ? null : t.warmups());
            ps.setLong(i++, m.rssBefore());
            ps.setLong(i++, m.rssAfter());
            ps.setLong(i++, m.rssPeak());
            setDouble(ps, i++, q == null ? null : q.maxAbsErr());
            setDouble(ps, i++, q == null ? null : q.maxRelErr());
            setDouble(ps, i++, q == null ? null : q.cosine());
            setDouble(ps, i++, q == null ? null : q.tolerance());
            setBool(ps, i++, q == null ? null : q.within());
            ps.setString(i++, q == null ? null : q.against());
            ps.setLong(i++, q == null ? 0 : q.nonFinite());
            setDouble(ps, i++, q == null ? null : q.rtol());
            setDouble(ps, i++, q == null ? null : q.budget());
            ps.setString(i++, q == null ? null : q.basis());
            ps.setString(i++, ResultJson.fallbackPath(r.fallbackPath()).toString());
            ps.setString(i++, ResultJson.strings(r.warnings()).toString());
            ps.setString(i++, p == null ? null : ResultJson.provenance(p).toString());
            ps.setObject(i++, r.startedAt() == null ? null : ts(r.startedAt()));
            ps.setString(i++, r.variantParity() == null ? null : ResultJson.parity(r.variantParity()).toString());
            ps.setString(i++, AnalysisJson.column(r.analysis()));
            ps.setInt(i++, r.attempts().count());
            ps.setString(i++, r.attempts().earlier().isEmpty() ? null : ResultJson.strings(r.attempts().earlier()).toString());
            ps.setString(i, t == null ? null : QualityForm.column(t.quality()));
        }
    }

    /** Results matching {@code where} (with its binder), with their samples, oldest first unless ordered. */
    List<RunResult> select(String where, Db.Binder binder) {
        List<Long> ids = new ArrayList<>();
        List<RunResult> partial = new ArrayList<>();
        String order = where.contains("ORDER BY") ? "" : " ORDER BY started_at, id";
        db.query("SELECT " + COLUMNS + " FROM results " + where + order, binder, rs -> {
            ids.add(rs.getLong(1));
            partial.add(row(rs));
        });
        if (ids.isEmpty()) {
            return partial;
        }
        Map<Long, double[]> samples = samplesOf(ids);
        List<RunResult> out = new ArrayList<>(partial.size());
        for (int k = 0; k < partial.size(); k++) {
            RunResult r = partial.get(k);
            Timings t = r.timings();
            if (t != null) {
                double[] s = samples.getOrDefault(ids.get(k), new double[0]);
                r = r.withTimings(t.withSamples(s));
            }
            out.add(r);
        }
        return out;
    }

    private Map<Long, double[]> samplesOf(List<Long> ids) {
        Map<Long, List<Double>> acc = new HashMap<>();
        // chunks keep the IN list short; ids are our own longs, never user text
        for (int from = 0; from < ids.size(); from += 2000) {
            StringBuilder in = new StringBuilder();
            for (Long id : ids.subList(from, Math.min(ids.size(), from + 2000))) {
                in.append(in.length() == 0 ? "" : ",").append(id);
            }
            db.query("SELECT result_id, ms FROM samples WHERE result_id IN (" + in + ") ORDER BY result_id, idx", ps -> { },
                    rs -> acc.computeIfAbsent(rs.getLong(1), k -> new ArrayList<>()).add(rs.getDouble(2)));
        }
        Map<Long, double[]> out = new HashMap<>();
        acc.forEach((k, v) -> out.put(k, v.stream().mapToDouble(Double::doubleValue).toArray()));
        return out;
    }

    private static RunResult row(ResultSet rs) throws SQLException {
        String provJson = rs.getString("provenance");
        Provenance p = provJson == null ? null : ResultJson.provenance(ResultJson.parse(provJson));
        Timings t = null;
        if (rs.getObject("iterations") != null) {
            t = new Timings(dbl(rs, "load_ms"), dbl(rs, "first_ms"), rs.getInt("warmups"), new double[0], dbl(rs, "p50_ms"),
                    dbl(rs, "p90_ms"), dbl(rs, "p99_ms"), dbl(rs, "mean_ms"), dbl(rs, "stddev_ms"), dbl(rs, "throughput_per_sec"),
                    QualityForm.read(rs.getString("quality")));
        }
        Parity q = null;
        if (rs.getObject("parity_within") != null) {
            q = new Parity(dbl(rs, "max_abs_err"), dbl(rs, "max_rel_err"), dbl(rs, "cosine"), dbl(rs, "tolerance"),
                    rs.getBoolean("parity_within"), rs.getString("parity_against"), rs.getLong("non_finite"), dbl(rs, "rtol"),
                    dbl(rs, "tolerance_budget"), rs.getString("tolerance_basis"));
        }
        MemoryUsage m = new MemoryUsage(rs.getLong("rss_before"), rs.getLong("rss_after"), rs.getLong("rss_peak"));
        String actual = rs.getString("actual");
        CaseId id = Dimensions.read(d -> column(rs, d.column()));
        return new RunResult(rs.getString("run_id"), instant(rs, "started_at"), id,
                actual == null ? null : BackendId.parse(actual), Status.valueOf(rs.getString("status")), rs.getString("reason"),
                p, t, m, q, ResultJson.fallbackPath(ResultJson.parse(rs.getString("fallback_path"))),
                ResultJson.strings(ResultJson.parse(rs.getString("warnings"))),
                rs.getString("variant_parity") == null ? null : ResultJson.parity(ResultJson.parse(rs.getString("variant_parity"))),
                rs.getString("analysis") == null ? null : AnalysisJson.read(ResultJson.parse(rs.getString("analysis"))),
                new Attempts(Math.max(1, rs.getInt("attempts")), rs.getString("earlier_attempts") == null ? List.of()
                        : ResultJson.strings(ResultJson.parse(rs.getString("earlier_attempts")))));
    }

    private static String column(ResultSet rs, String col) {
        try {
            return rs.getString(col);
        } catch (SQLException e) {
            throw new IllegalStateException("column " + col + " is not readable", e);
        }
    }

    private static void setDouble(PreparedStatement ps, int i, Double v) throws SQLException {
        if (v == null) {
            ps.setNull(i, Types.DOUBLE);
        } else {
            ps.setDouble(i, v);
        }
    }

    private static void setInt(PreparedStatement ps, int i, Integer v) throws SQLException {
        if (v == null) {
            ps.setNull(i, Types.INTEGER);
        } else {
            ps.setInt(i, v);
        }
    }

    private static void setBool(PreparedStatement ps, int i, Boolean v) throws SQLException {
        if (v == null) {
            ps.setNull(i, Types.BOOLEAN);
        } else {
            ps.setBoolean(i, v);
        }
    }

    private static double dbl(ResultSet rs, String col) throws SQLException {
        double v = rs.getDouble(col);
        return rs.wasNull() ? Double.NaN : v;
    }

    /** Instants are stored to the microsecond (DuckDB's TIMESTAMP), in UTC. */
    static LocalDateTime ts(Instant i) {
        return LocalDateTime.ofInstant(i.truncatedTo(ChronoUnit.MICROS), ZoneOffset.UTC);
    }

    static Instant instant(ResultSet rs, Object col) throws SQLException {
        Object o = col instanceof Integer n ? rs.getObject(n) : rs.getObject((String) col);
        if (o == null) {
            return null;
        }
        if (o instanceof Timestamp t) {
            return t.toLocalDateTime().toInstant(ZoneOffset.UTC);
        }
        if (o instanceof LocalDateTime l) {
            return l.toInstant(ZoneOffset.UTC);
        }
        return LocalDateTime.parse(o.toString().replace(' ', 'T')).toInstant(ZoneOffset.UTC);
    }
}
