package dev.accelbridge.reports.store;

import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.StoreException;
import org.duckdb.DuckDBConnection;

import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;

/** The store's bookkeeping: runs (begin, resume, finish, interrupted), the probes of a run, and the hosts seen. */
final class RunLedger {
    private final Db db;
    private final RunLocks locks;

    RunLedger(Db db, RunLocks locks) {
        this.db = db;
        this.locks = locks;
    }

    String begin(HostInfo host, String toolkitVersion, Map<String, String> runtimeVersions, String planJson) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        String runId = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC).format(now) + "-"
                + UUID.randomUUID().toString().substring(0, 8);
        locks.hold(runId);
        db.inTransaction(c -> {
            upsertHost(c, host.fingerprint(), host.hostname(), ResultJson.host(host).toString(), now, now);
            try (PreparedStatement ps = c.prepareStatement("INSERT INTO runs (run_id, started_at, finished_at, status, host_fingerprint, toolkit_version, runtime_versions, plan) VALUES (?, ?, NULL, 'running', ?, ?, ?, ?)")) {
                ps.setString(1, runId);
                ps.setObject(2, ResultRows.ts(now));
                ps.setString(3, host.fingerprint());
                ps.setString(4, toolkitVersion);
                ps.setString(5, ResultJson.mapJson(runtimeVersions == null ? Map.of() : runtimeVersions));
                ps.setString(6, planJson);
                ps.executeUpdate();
            }
        });
        return runId;
    }

    void upsertHost(DuckDBConnection c, String fingerprint, String hostname, String detectJson, Instant firstSeen,
                    Instant lastSeen) throws SQLException {
        boolean exists;
        try (PreparedStatement ps = c.prepareStatement("SELECT count(*) FROM hosts WHERE fingerprint = ?")) {
            ps.setString(1, fingerprint);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                exists = rs.getInt(1) > 0;
            }
        }
        String sql = exists
                ? "UPDATE hosts SET hostname = ?, detect = ?, first_seen = least(first_seen, ?), last_seen = greatest(last_seen, ?) "
                + "WHERE fingerprint = ?"
                : "INSERT INTO hosts (hostname, detect, first_seen, last_seen, fingerprint) VALUES (?, ?, ?, ?, ?)";
        try (PreparedStatement ps = c.prepareStatement(sql)) {
            ps.setString(1, hostname);
            ps.setString(2, detectJson);
            ps.setObject(3, ResultRows.ts(firstSeen));
            ps.setObject(4, ResultRows.ts(lastSeen));
            ps.setString(5, fingerprint);
            ps.executeUpdate();
        }
    }

    /** Runs left "running" by a process that no longer holds their lock are marked interrupted. */
    void markInterrupted() {
        List<String> running = new ArrayList<>();
        db.query("SELECT run_id FROM runs WHERE status = 'running'", ps -> { }, rs -> running.add(rs.getString(1)));
        List<String> dead = running.stream().filter(r -> !locks.alive(r)).toList();
        if (dead.isEmpty()) {
            return;
        }
        db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE runs SET status = 'interrupted' WHERE run_id = ?")) {
                for (String r : dead) {
                    ps.setString(1, r);
                    ps.executeUpdate();
                }
            }
        });
        dead.forEach(locks::release);
    }

    void resume(String runId, boolean reopenFinished) {
        RunInfo info = run(runId).orElseThrow(() -> new StoreException("No run " + runId + " in the matrix store " + db.path(),
                "list runs with 'accelbridge report', or start a new run"));
        if (info.status() == RunStatus.FINISHED && !reopenFinished) {
            throw new StoreException("Run " + runId + " in " + db.path() + " already finished; there is nothing to resume",
                    "start a new run");
        }
        if (info.status() == RunStatus.RUNNING && locks.alive(runId)) {
            throw new StoreException("Run " + runId + " in " + db.path() + " is still running in another process",
                    "wait for it to finish");
        }
        locks.hold(runId);
        setStatus(runId, "UPDATE runs SET status = 'running' WHERE run_id = ?");
    }

    void recordAccount(String runId, String json) {
        db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE runs SET account = ? WHERE run_id = ?")) {
                ps.setString(1, json);
                ps.setString(2, runId);
                ps.executeUpdate();
            }
        });
    }

    Optional<String> account(String runId) {
        List<String> out = new ArrayList<>();
        db.query("SELECT account FROM runs WHERE run_id = ?", ps -> ps.setString(1, runId), rs -> out.add(rs.getString(1)));
        return out.isEmpty() ? Optional.empty() : Optional.ofNullable(out.get(0));
    }

    void finish(String runId) {
        db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement("UPDATE runs SET status = 'finished', finished_at = ? WHERE run_id = ?")) {
                ps.setObject(1, ResultRows.ts(Instant.now()));
                ps.setString(2, runId);
                if (ps.executeUpdate() != 1) {
                    throw new StoreException("No run " + runId + " in the matrix store " + db.path(), "call beginRun first");
                }
            }
        });
        locks.release(runId);
    }

    private void setStatus(String runId, String sql) {
        db.inTransaction(c -> {
            try (PreparedStatement ps = c.prepareStatement(sql)) {
                ps.setString(1, runId);
                ps.executeUpdate();
            }
        });
    }

    void recordProbe(String runId, Availability a) {
        db.inTransaction(c -> insertProbe(c, runId, a));
    }

    static void insertProbe(DuckDBConnection c, String runId, Availability a) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO probes VALUES (?, ?, ?, ?, ?)")) {
            ps.setString(1, runId);
            ps.setString(2, a.backend().id());
            ps.setString(3, a.where());
            ps.setBoolean(4, a.available());
            ps.setString(5, a.evidence());
            ps.executeUpdate();
        }
    }

    static void insertRun(DuckDBConnection c, RunInfo run) throws SQLException {
        try (PreparedStatement ps = c.prepareStatement("INSERT INTO runs (run_id, started_at, finished_at, status, host_fingerprint, toolkit_version, runtime_versions, plan) VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
            ps.setString(1, run.runId());
            ps.setObject(2, ResultRows.ts(run.startedAt()));
            ps.setObject(3, run.finishedAt() == null ? null : ResultRows.ts(run.finishedAt()));
            // a run imported as "running" was exported mid-run; here it can only be interrupted
            ps.setString(4, run.status() == RunStatus.RUNNING ? RunStatus.INTERRUPTED.db() : run.status().db());
            ps.setString(5, run.hostFingerprint());
            ps.setString(6, run.toolkitVersion());
            ps.setString(7, ResultJson.mapJson(run.runtimeVersions()));
            ps.setString(8, run.planJson());
            ps.executeUpdate();
        }
    }

    List<Availability> probes(String runId) {
        List<Availability> out = new ArrayList<>();
        db.query("SELECT backend, available, evidence, probe_where FROM probes WHERE run_id = ? ORDER BY rowid",
                ps -> ps.setString(1, runId),
                rs -> out.add(new Availability(BackendId.parse(rs.getString(1)), rs.getBoolean(2), rs.getString(3), rs.getString(4))));
        return out;
    }

    Optional<RunInfo> run(String runId) {
        List<RunInfo> l = runs("WHERE r.run_id = ?", runId);
        return l.isEmpty() ? Optional.empty() : Optional.of(l.get(0));
    }

    List<RunInfo> runs(String where, String arg) {
        List<RunInfo> out = new ArrayList<>();
        db.query("SELECT r.run_id, r.started_at, r.finished_at, r.status, r.host_fingerprint, r.toolkit_version, r.runtime_versions, "
                        + "r.plan, (SELECT count(*) FROM results x WHERE x.run_id = r.run_id) FROM runs r " + where
                        + " ORDER BY r.started_at, r.run_id",
                ps -> {
                    if (arg != null) {
                        ps.setString(1, arg);
                    }
                },
                rs -> out.add(new RunInfo(rs.getString(1), ResultRows.instant(rs, 2), ResultRows.instant(rs, 3),
                        RunStatus.fromDb(rs.getString(4)), rs.getString(5), rs.getString(6),
                        ResultJson.mapFromJson(rs.getString(7)), rs.getString(8), rs.getInt(9))));
        return out;
    }

    Optional<String> latest() {
        List<String> out = new ArrayList<>();
        db.query("SELECT run_id FROM runs ORDER BY started_at DESC, run_id DESC LIMIT 1", ps -> { }, rs -> out.add(rs.getString(1)));
        return out.stream().findFirst();
    }

    /**
     * Several models in one transaction, {@link Staged} with one upsert (the op suite has hundreds of
     * models; one statement each cost ~1.4 ms a model).
     * A model listed twice is written once, as last listed.
     */
    void recordModels(List<ModelEntry> models) {
        Map<String, ModelEntry> known = new LinkedHashMap<>();
        models.stream().filter(m -> m.sha256() != null).forEach(m -> known.put(m.sha256(), m));
        if (known.isEmpty()) {
            return;
        }
        db.inTransaction(c -> {
            // a later record replaces an earlier one, but what it does not know (a merged export's model has no name or
            // cost) keeps what the store knew
            Staged.insert(c, "models_in", "models", "sha256, name, opset, ops, flops_per_item, weight_bytes", "INSERT INTO",
                    "ON CONFLICT (sha256) DO UPDATE SET name = COALESCE(excluded.name, models.name), opset = CASE WHEN excluded.opset > 0 "
                    + "THEN excluded.opset ELSE models.opset END, ops = excluded.ops, flops_per_item = COALESCE(excluded.flops_per_item, "
                    + "models.flops_per_item), weight_bytes = COALESCE(excluded.weight_bytes, models.weight_bytes)", ap -> {
                for (ModelEntry m : known.values()) {
                    ap.beginRow().append(m.sha256());
                    Staged.text(ap, m.name());
                    ap.append(m.opset()).append(ResultJson.strings(m.ops()).toString());
                    Staged.real(ap, m.cost().flopsPerItem().isPresent() ? m.cost().flopsPerItem().getAsDouble() : null);
                    if (m.cost().weightBytes().isPresent()) {
                        ap.append(m.cost().weightBytes().getAsLong());
                    } else {
                        ap.appendNull();
                    }
                    ap.endRow();
                }
            });
        });
    }

    /** The op types of every recorded model, by sha256. */
    Map<String, List<String>> modelOps() {
        Map<String, List<String>> out = new LinkedHashMap<>();
        db.query("SELECT sha256, ops FROM models ORDER BY sha256", ps -> { },
                rs -> out.put(rs.getString(1), ResultJson.strings(ResultJson.parse(rs.getString(2)))));
        return out;
    }

    /** What one inference of each recorded model costs, by sha256 (unknown figures empty). */
    Map<String, dev.accelbridge.core.ModelCost> modelCosts() {
        Map<String, dev.accelbridge.core.ModelCost> out = new LinkedHashMap<>();
        db.query("SELECT sha256, flops_per_item, weight_bytes FROM models ORDER BY sha256", ps -> { }, rs -> {
            double flops = rs.getDouble(2);
            boolean noFlops = rs.wasNull();
            long bytes = rs.getLong(3);
            boolean noBytes = rs.wasNull();
            out.put(rs.getString(1), dev.accelbridge.core.ModelCost.of(noFlops ? Double.NaN : flops, noBytes ? -1 : bytes));
        });
        return out;
    }

    Map<String, HostInfo> hosts() {
        Map<String, HostInfo> out = new LinkedHashMap<>();
        db.query("SELECT fingerprint, detect FROM hosts ORDER BY first_seen", ps -> { },
                rs -> out.put(rs.getString(1), ResultJson.host(ResultJson.parse(rs.getString(2)))));
        return out;
    }

    /** Raw host rows for {@link StoreExport}. */
    List<Object[]> hostRows() {
        List<Object[]> out = new ArrayList<>();
        db.query("SELECT fingerprint, hostname, detect, first_seen, last_seen FROM hosts ORDER BY first_seen", ps -> { },
                rs -> out.add(new Object[]{rs.getString(1), rs.getString(2), rs.getString(3),
                        ResultRows.instant(rs, 4), ResultRows.instant(rs, 5)}));
        return out;
    }

    /** A merged run: its run row and probes when the store lacks the run, and its results the store lacks. */
    void importRun(RunInfo run, boolean newRun, List<Availability> probes, List<RunResult> fresh) {
        db.inTransaction(c -> {
            if (newRun) {
                insertRun(c, run);
                for (Availability a : probes) {
                    insertProbe(c, run.runId(), a);
                }
            }
            ResultInserts.insertAll(c, fresh);
        });
    }
}
