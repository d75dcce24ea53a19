package dev.accelbridge.reports.store;

import dev.accelbridge.core.Attempts;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.Dimension;
import dev.accelbridge.core.Dimensions;
import dev.accelbridge.core.MemoryUsage;
import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.Timings;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Timestamp;
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
 * Result rows and their samples read back: a row as a {@link RunResult} with its samples, a cell's history, and the one
 * place that binds a {@link CaseId} to the columns that hold it ({@link #CASE_WHERE}, {@link #bindCase}), both from
 * {@link Dimensions}; {@link ResultInserts} writes them, in {@link #COLUMNS} order.
 */
final class ResultRows {
    /** The identity columns, in {@link #bindCase} order: one term per {@link Dimensions#all()}. */
    static final String CASE_WHERE = where(true);
    /** Same, without the requested backend (what a fallback's cost looks up). */
    static final String CASE_WHERE_ANY_REQUESTED = where(false);
    /** The result table's columns, in the order {@link ResultInserts} appends them. */
    static final String COLUMNS = "id, run_id, " + Dimensions.all().stream().map(Dimension::column).collect(Collectors.joining(", "))
            + ", actual, status, reason, browser, browser_version, driver, adapter, software_adapter, host, "
            + "host_fingerprint, os, load_ms, first_ms, p50_ms, p90_ms, p99_ms, mean_ms, stddev_ms, throughput_per_sec, "
            + "iterations, warmups, rss_before, rss_after, rss_peak, max_abs_err, max_rel_err, cosine, tolerance, "
            + "parity_within, parity_against, non_finite, rtol, tolerance_budget, tolerance_basis, fallback_path, warnings, provenance, "
            + "started_at, variant_parity, analysis, attempts, earlier_attempts, quality, decoding, shared_figures, memory_detail, outcome";

    private final Db db;

    ResultRows(Db db) {
        this.db = db;
    }

    /** Binds the case's identity at {@code at}..; returns the next index. {@code withRequested} picks the WHERE form. */
    static int bindCase(PreparedStatement ps, int at, CaseId id, boolean withRequested) throws SQLException {
        int i = at;
        for (Dimension<?> d : Dimensions.all()) {
            if (withRequested || d != Dimensions.REQUESTED) {
                ps.setObject(i++, d.value(id));
            }
        }
        return i;
    }

    private static String where(boolean withRequested) {
        return Dimensions.all().stream().filter(d -> withRequested || d != Dimensions.REQUESTED)
                .map(d -> d.column() + (d.nullable() ? " IS NOT DISTINCT FROM ?" : " = ?")).collect(Collectors.joining(" AND "));
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
            Timings t = r.timings().orElse(null);
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
                    QualityForm.read(rs.getString("quality")), DecodingForm.read(rs.getString("decoding")));
        }
        Parity q = null;
        if (rs.getObject("parity_within") != null) {
            q = new Parity(dbl(rs, "max_abs_err"), dbl(rs, "max_rel_err"), dbl(rs, "cosine"), dbl(rs, "tolerance"),
                    rs.getBoolean("parity_within"), rs.getString("parity_against"), rs.getLong("non_finite"), dbl(rs, "rtol"),
                    dbl(rs, "tolerance_budget"), rs.getString("tolerance_basis"));
        }
        MemoryUsage m = MemoryForm.read(rs.getLong("rss_before"), rs.getLong("rss_after"), rs.getLong("rss_peak"), rs.getString("memory_detail"));
        String actual = rs.getString("actual");
        CaseId id = Dimensions.read(d -> column(rs, d.column()));
        // the kind as stored; a row whose columns say another kind is malformed, refused, never guessed
        Outcome outcome = Outcome.read(Outcome.Kind.valueOf(rs.getString("outcome")), actual == null ? null : BackendId.parse(actual), t, q);
        return new RunResult(rs.getString("run_id"), instant(rs, "started_at"), id,
                outcome, Status.valueOf(rs.getString("status")), rs.getString("reason"),
                p, m, ResultJson.fallbackPath(ResultJson.parse(rs.getString("fallback_path"))),
                ResultJson.strings(ResultJson.parse(rs.getString("warnings"))),
                rs.getString("variant_parity") == null ? null : ResultJson.parity(ResultJson.parse(rs.getString("variant_parity"))),
                rs.getString("analysis") == null ? null : AnalysisJson.read(ResultJson.parse(rs.getString("analysis"))),
                new Attempts(Math.max(1, rs.getInt("attempts")), rs.getString("earlier_attempts") == null ? List.of()
                        : ResultJson.strings(ResultJson.parse(rs.getString("earlier_attempts")))),
                actual != null && rs.getBoolean("shared_figures"));
    }

    private static String column(ResultSet rs, String col) {
        try {
            return rs.getString(col);
        } catch (SQLException e) {
            throw new IllegalStateException("column " + col + " is not readable", e);
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

    /** Every result of one cell (case on a host), oldest first: the cell's history. */
    List<RunResult> history(CaseId.CellId cell) {
        return select("WHERE " + CASE_WHERE + " AND host_fingerprint IS NOT DISTINCT FROM ?", ps -> {
            int i = bindCase(ps, 1, cell.caseId(), true);
            ps.setString(i, cell.hostFingerprint());
        });
    }

    /**
     * Timings of the latest result on this host where {@code backend} actually ran and worked (PASSED, or
     * FELL_BACK onto it) for the same model, inputs, precision, batch and lane as {@code id}: the "what it costs"
     * figure beside a fallback.
     */
    java.util.Optional<Timings> latestWorkingTimings(String hostFingerprint, CaseId id, BackendId backend) {
        List<RunResult> l = select("WHERE " + CASE_WHERE_ANY_REQUESTED
                + " AND host_fingerprint IS NOT DISTINCT FROM ? AND actual = ? AND status IN ('PASSED', 'FELL_BACK') "
                + "AND p50_ms IS NOT NULL ORDER BY started_at DESC, id DESC LIMIT 1", ps -> {
                    int i = bindCase(ps, 1, id, false);
                    ps.setString(i++, hostFingerprint);
                    ps.setString(i, backend.id());
                });
        return l.stream().findFirst().flatMap(RunResult::timings);
    }
}
