package dev.accelbridge.reports.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.MemoryUsage;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.Timings;
import dev.accelbridge.reports.StoreException;
import org.duckdb.DuckDBAppender;
import org.duckdb.DuckDBConnection;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.sql.Timestamp;
import java.sql.Types;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.Set;
import java.util.TreeSet;
import java.util.UUID;

/**
 * The shared compatibility matrix: an embedded DuckDB file holding runs, hosts, probes, results (one row per case)
 * and samples (every timed iteration).
 *
 * <p>Safety. {@link #open(Path)} never modifies a file that is not an Accelbridge store: it checks DuckDB's magic
 * bytes ({@code DUCK} at offset 8) before DuckDB touches the file, then inspects the tables in a
 * <em>read-only</em> connection, and refuses a foreign database, one with unknown tables, or one of a newer schema
 * version, with a {@link StoreException} naming the file and the fix. Only then is it opened read-write and
 * migrated forward.
 *
 * <p>Durability. {@link #write(RunResult)} is one transaction per case (result row + its samples, the samples
 * through DuckDB's Appender), so a process killed mid-run loses nothing already finished. A run still marked
 * running when the store is next opened was interrupted; it is marked so, and {@link #completedCaseKeys} tells
 * {@code run --resume} what to skip.
 *
 * <p>Instants are stored to the microsecond (DuckDB's TIMESTAMP), in UTC. Not thread-safe: one writer.
 */
public final class MatrixStore implements AutoCloseable {
    private static final byte[] MAGIC = "DUCK".getBytes(StandardCharsets.US_ASCII);
    private static final String RESULT_COLUMNS = "id, run_id, case_key, suite, model, input_set, model_sha256, requested,"
            + " actual, status, reason, browser, browser_version, driver, adapter, software_adapter, host, host_fingerprint,"
            + " os, load_ms, first_ms, p50_ms, p90_ms, p99_ms, mean_ms, stddev_ms, throughput_per_sec, iterations, warmups,"
            + " rss_before, rss_after, rss_peak, max_abs_err, max_rel_err, cosine, tolerance, parity_within, parity_against,"
            + " fallback_path, warnings, provenance, started_at";

    private final Path path;
    private final DuckDBConnection conn;
    private final Set<String> runsOfThisProcess = new LinkedHashSet<>();
    private PreparedStatement insertResult;

    private MatrixStore(Path path, DuckDBConnection conn) {
        this.path = path;
        this.conn = conn;
    }

    /** {@code ~/.accelbridge/matrix.duckdb} ({@code user.home} comes from passwd, not {@code $HOME}). */
    public static Path defaultPath() {
        return Path.of(System.getProperty("user.home"), ".accelbridge", "matrix.duckdb");
    }

    /** The schema version this build writes. */
    public static int currentSchemaVersion() {
        return Migrations.CURRENT;
    }

    /** The file this store lives in. */
    public Path path() {
        return path;
    }

    /**
     * Opens (creating when absent) the store at {@code path}, migrating an older schema forward. Runs left
     * "running" by a process that died are marked interrupted.
     *
     * @throws StoreException for a file that is not a DuckDB database, a DuckDB database that is not an
     *                        Accelbridge store, a newer schema version, or a file DuckDB cannot open (truncated,
     *                        locked by another process); the file is left as it was
     */
    public static MatrixStore open(Path path) {
        Path p = path.toAbsolutePath();
        boolean exists = Files.exists(p);
        if (exists) {
            inspect(p);
        } else {
            try {
                if (p.getParent() != null) {
                    Files.createDirectories(p.getParent());
                }
            } catch (IOException e) {
                throw new StoreException("Cannot create the folder of the matrix store " + p + ": " + e.getMessage(),
                        "check the permissions, or choose another file with --db PATH", e);
            }
        }
        DuckDBConnection c;
        try {
            c = (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:" + p);
        } catch (SQLException e) {
            throw new StoreException("Cannot open the matrix store " + p + ": " + firstLine(e),
                    "if another accelbridge process is using it, wait for it or use another --db PATH", e);
        }
        MatrixStore s = new MatrixStore(p, c);
        try {
            s.migrate();
            s.markInterrupted();
        } catch (SQLException e) {
            s.closeQuietly();
            throw new StoreException("Cannot prepare the matrix store " + p + ": " + firstLine(e),
                    "use another --db PATH, or restore the file from a backup", e);
        } catch (RuntimeException e) {
            s.closeQuietly();
            throw e;
        }
        return s;
    }

    /** Checks an existing file before any read-write connection touches it. */
    private static void inspect(Path p) {
        if (!Files.isRegularFile(p)) {
            throw new StoreException("The matrix store path " + p + " is not a regular file",
                    "point --db at a file (a new one is created when absent)");
        }
        byte[] head = new byte[12];
        int n;
        try (InputStream in = Files.newInputStream(p)) {
            n = in.readNBytes(head, 0, head.length);
        } catch (IOException e) {
            throw new StoreException("Cannot read the matrix store " + p + ": " + e.getMessage(),
                    "check the file's permissions", e);
        }
        if (n < head.length || head[8] != MAGIC[0] || head[9] != MAGIC[1] || head[10] != MAGIC[2] || head[11] != MAGIC[3]) {
            throw new StoreException("The file " + p + " is not a DuckDB database (no DuckDB header; " + n
                    + (n < head.length ? " bytes long" : " bytes read") + "), so it is not an Accelbridge matrix store",
                    "point --db at an Accelbridge store, or at a path that does not exist yet to create one; the file was left untouched");
        }
        Properties ro = new Properties();
        ro.setProperty("duckdb.read_only", "true");
        try (Connection c = DriverManager.getConnection("jdbc:duckdb:" + p, ro); Statement st = c.createStatement()) {
            Set<String> tables = new TreeSet<>();
            try (ResultSet rs = st.executeQuery("SELECT table_name FROM information_schema.tables "
                    + "WHERE table_catalog = current_database() AND table_schema = 'main'")) {
                while (rs.next()) {
                    tables.add(rs.getString(1));
                }
            }
            if (!tables.contains("schema_version")) {
                throw new StoreException("The DuckDB database " + p + " is not an Accelbridge matrix store (no schema_version table; "
                        + (tables.isEmpty() ? "it has no tables" : "its tables are " + tables) + ")",
                        "point --db at an Accelbridge store, or at a path that does not exist yet to create one; the file was left untouched");
            }
            Set<String> unknown = new TreeSet<>(tables);
            unknown.removeAll(Migrations.KNOWN_TABLES);
            if (!unknown.isEmpty()) {
                throw new StoreException("The DuckDB database " + p + " has tables an Accelbridge store does not have: " + unknown,
                        "point --db at a store written by Accelbridge only; the file was left untouched");
            }
            int v;
            try (ResultSet rs = st.executeQuery("SELECT coalesce(max(version), 0) FROM schema_version")) {
                rs.next();
                v = rs.getInt(1);
            }
            // A truncated file passes the catalog read (DuckDB loads blocks lazily): compare the file's size with the
            // blocks the header says it has, and read the bookkeeping tables through, before any read-write open.
            try (ResultSet rs = st.executeQuery("SELECT block_size, total_blocks FROM pragma_database_size()")) {
                rs.next();
                long need = 3 * 4096L + rs.getLong(1) * rs.getLong(2);
                long have = Files.size(p);
                if (have < need) {
                    throw new SQLException("the file is " + have + " bytes but its header describes " + need + " bytes (truncated)");
                }
            } catch (IOException e) {
                throw new SQLException(e.getMessage(), e);
            }
            for (String t : tables) {
                try (ResultSet rs = st.executeQuery("SELECT * FROM \"" + t + "\"")) {
                    while (rs.next()) {
                        rs.getObject(1);
                    }
                }
            }
            if (v > Migrations.CURRENT) {
                throw new StoreException("The matrix store " + p + " has schema version " + v + ", newer than this Accelbridge's "
                        + Migrations.CURRENT, "upgrade Accelbridge to read it, or use another --db PATH; the file was left untouched");
            }
        } catch (SQLException e) {
            throw new StoreException("The file " + p + " has a DuckDB header but DuckDB cannot read it: " + firstLine(e),
                    "it may be truncated, written by an incompatible DuckDB version, or locked by another process; "
                            + "restore it from a backup or use another --db PATH; the file was left untouched", e);
        }
    }

    private void migrate() throws SQLException {
        int v;
        try (Statement st = conn.createStatement()) {
            boolean has;
            try (ResultSet rs = st.executeQuery("SELECT count(*) FROM information_schema.tables "
                    + "WHERE table_catalog = current_database() AND table_schema = 'main' AND table_name = 'schema_version'")) {
                rs.next();
                has = rs.getInt(1) > 0;
            }
            if (has) {
                try (ResultSet rs = st.executeQuery("SELECT coalesce(max(version), 0) FROM schema_version")) {
                    rs.next();
                    v = rs.getInt(1);
                }
            } else {
                v = 0;
            }
        }
        for (Migrations.Migration m : Migrations.ALL) {
            if (m.toVersion() <= v) {
                continue;
            }
            conn.setAutoCommit(false);
            try (Statement st = conn.createStatement()) {
                for (String sql : m.statements()) {
                    st.execute(sql);
                }
                try (PreparedStatement ps = conn.prepareStatement("INSERT INTO schema_version VALUES (?, ?, ?)")) {
                    ps.setInt(1, m.toVersion());
                    ps.setString(2, m.description());
                    ps.setObject(3, ts(Instant.now()));
                    ps.executeUpdate();
                }
                conn.commit();
            } catch (SQLException e) {
                conn.rollback();
                throw e;
            } finally {
                conn.setAutoCommit(true);
            }
        }
    }

    private void markInterrupted() throws SQLException {
        try (Statement st = conn.createStatement()) {
            st.executeUpdate("UPDATE runs SET status = 'interrupted' WHERE status = 'running'");
        }
    }

    /** The schema version of the open store. */
    public int schemaVersion() {
        return queryInt("SELECT max(version) FROM schema_version");
    }

    // ------------------------------------------------------------------ runs

    /** {@link #beginRun(HostInfo, String, Map, String)} with the toolkit version from {@code runtimeVersions.accelbridge}. */
    public String beginRun(HostInfo host, Map<String, String> runtimeVersions, String planJson) {
        String tv = runtimeVersions.getOrDefault("accelbridge",
                Optional.ofNullable(MatrixStore.class.getPackage().getImplementationVersion()).orElse("unknown"));
        return beginRun(host, tv, runtimeVersions, planJson);
    }

    /**
     * Starts a run: records the host (its detect output, first/last seen) and a run row marked running.
     *
     * @return the new run id ({@code yyyyMMdd'T'HHmmss'Z'-xxxxxxxx}: sortable by time, unique across hosts)
     */
    public String beginRun(HostInfo host, String toolkitVersion, Map<String, String> runtimeVersions, String planJson) {
        Instant now = Instant.now().truncatedTo(ChronoUnit.MICROS);
        String runId = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss'Z'").withZone(ZoneOffset.UTC).format(now) + "-"
                + UUID.randomUUID().toString().substring(0, 8);
        inTransaction(() -> {
            upsertHost(host.fingerprint(), host.hostname(), ResultJson.host(host).toString(), now, now);
            try (PreparedStatement ps = conn.prepareStatement("INSERT INTO runs VALUES (?, ?, NULL, 'running', ?, ?, ?, ?)")) {
                ps.setString(1, runId);
                ps.setObject(2, ts(now));
                ps.setString(3, host.fingerprint());
                ps.setString(4, toolkitVersion);
                ps.setString(5, ResultJson.mapJson(runtimeVersions == null ? Map.of() : runtimeVersions));
                ps.setString(6, planJson);
                ps.executeUpdate();
            }
        });
        runsOfThisProcess.add(runId);
        return runId;
    }

    private void upsertHost(String fingerprint, String hostname, String detectJson, Instant firstSeen, Instant lastSeen)
            throws SQLException {
        boolean exists;
        try (PreparedStatement ps = conn.prepareStatement("SELECT count(*) FROM hosts WHERE fingerprint = ?")) {
            ps.setString(1, fingerprint);
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                exists = rs.getInt(1) > 0;
            }
        }
        if (exists) {
            try (PreparedStatement ps = conn.prepareStatement("UPDATE hosts SET hostname = ?, detect = ?, "
                    + "first_seen = least(first_seen, ?), last_seen = greatest(last_seen, ?) WHERE fingerprint = ?")) {
                ps.setString(1, hostname);
                ps.setString(2, detectJson);
                ps.setObject(3, ts(firstSeen));
                ps.setObject(4, ts(lastSeen));
                ps.setString(5, fingerprint);
                ps.executeUpdate();
            }
        } else {
            try (PreparedStatement ps = conn.prepareStatement("INSERT INTO hosts VALUES (?, ?, ?, ?, ?)")) {
                ps.setString(1, fingerprint);
                ps.setString(2, hostname);
                ps.setString(3, detectJson);
                ps.setObject(4, ts(firstSeen));
                ps.setObject(5, ts(lastSeen));
                ps.executeUpdate();
            }
        }
    }

    /** Marks an interrupted run as running again, for {@code run --resume}. */
    public void resumeRun(String runId) {
        RunInfo info = run(runId).orElseThrow(() -> new StoreException("No run " + runId + " in the matrix store " + path,
                "list runs with 'accelbridge report', or start a new run"));
        if (info.status() == RunStatus.FINISHED) {
            throw new StoreException("Run " + runId + " in " + path + " already finished; there is nothing to resume",
                    "start a new run");
        }
        update("UPDATE runs SET status = 'running' WHERE run_id = ?", runId);
        runsOfThisProcess.add(runId);
    }

    /** Marks a run finished. */
    public void finishRun(String runId) {
        inTransaction(() -> {
            try (PreparedStatement ps = conn.prepareStatement("UPDATE runs SET status = 'finished', finished_at = ? WHERE run_id = ?")) {
                ps.setObject(1, ts(Instant.now()));
                ps.setString(2, runId);
                if (ps.executeUpdate() != 1) {
                    throw new StoreException("No run " + runId + " in the matrix store " + path, "call beginRun first");
                }
            }
        });
        runsOfThisProcess.remove(runId);
    }

    /** Records a probe's answer for a run. */
    public void recordProbe(String runId, Availability a) {
        inTransaction(() -> {
            try (PreparedStatement ps = conn.prepareStatement("INSERT INTO probes VALUES (?, ?, ?, ?, ?)")) {
                ps.setString(1, runId);
                ps.setString(2, a.backend().id());
                ps.setString(3, a.where());
                ps.setBoolean(4, a.available());
                ps.setString(5, a.evidence());
                ps.executeUpdate();
            }
        });
    }

    /** The probe answers recorded for a run, in recording order. */
    public List<Availability> probes(String runId) {
        List<Availability> out = new ArrayList<>();
        query("SELECT backend, available, evidence, probe_where FROM probes WHERE run_id = ? ORDER BY rowid", ps -> ps.setString(1, runId),
                rs -> out.add(new Availability(BackendId.parse(rs.getString(1)), rs.getBoolean(2), rs.getString(3), rs.getString(4))));
        return out;
    }

    /** One run's bookkeeping. */
    public Optional<RunInfo> run(String runId) {
        List<RunInfo> l = runs("WHERE r.run_id = ?", runId);
        return l.isEmpty() ? Optional.empty() : Optional.of(l.get(0));
    }

    /** Every run, oldest first. */
    public List<RunInfo> runs() {
        return runs("", null);
    }

    /** Runs a process left unfinished (found running at open time), oldest first. */
    public List<RunInfo> interruptedRuns() {
        return runs("WHERE r.status = 'interrupted'", null);
    }

    /** The newest run (by start time), if any. */
    public Optional<String> latestRun() {
        List<String> out = new ArrayList<>();
        query("SELECT run_id FROM runs ORDER BY started_at DESC, run_id DESC LIMIT 1", ps -> { }, rs -> out.add(rs.getString(1)));
        return out.stream().findFirst();
    }

    private List<RunInfo> runs(String where, String arg) {
        List<RunInfo> out = new ArrayList<>();
        query("SELECT r.run_id, r.started_at, r.finished_at, r.status, r.host_fingerprint, r.toolkit_version, r.runtime_versions, "
                        + "r.plan, (SELECT count(*) FROM results x WHERE x.run_id = r.run_id) FROM runs r " + where
                        + " ORDER BY r.started_at, r.run_id",
                ps -> {
                    if (arg != null) {
                        ps.setString(1, arg);
                    }
                },
                rs -> out.add(new RunInfo(rs.getString(1), instant(rs, 2), instant(rs, 3), RunStatus.fromDb(rs.getString(4)),
                        rs.getString(5), rs.getString(6), ResultJson.mapFromJson(rs.getString(7)), rs.getString(8), rs.getInt(9))));
        return out;
    }

    /** Every host seen, keyed by fingerprint, with its detect output. */
    public Map<String, HostInfo> hosts() {
        Map<String, HostInfo> out = new java.util.LinkedHashMap<>();
        query("SELECT fingerprint, detect FROM hosts ORDER BY first_seen", ps -> { },
                rs -> out.put(rs.getString(1), ResultJson.host(ResultJson.parse(rs.getString(2)))));
        return out;
    }

    // --------------------------------------------------------------- results

    /** Writes one case: the result row and its samples, in one transaction. */
    public void write(RunResult r) {
        inTransaction(() -> insert(r));
    }

    /** Writes several cases in one transaction (merge, bulk import). */
    public void writeAll(List<RunResult> results) {
        inTransaction(() -> {
            for (RunResult r : results) {
                insert(r);
            }
        });
    }

    private void insert(RunResult r) throws SQLException {
        long id;
        if (insertResult == null) {
            // prepared once per store: re-preparing a 41-column insert per case dominated bulk writes
            insertResult = conn.prepareStatement("INSERT INTO results (" + RESULT_COLUMNS.substring(4)
                    + ") VALUES (" + "?,".repeat(40) + "?) RETURNING id");
        }
        {
            PreparedStatement ps = insertResult;
            Provenance p = r.provenance();
            Timings t = r.timings();
            Parity q = r.parity();
            MemoryUsage m = r.memory();
            int i = 1;
            ps.setString(i++, r.runId());
            ps.setString(i++, CaseKey.of(r).toString());
            ps.setString(i++, r.suite().id());
            ps.setString(i++, r.model());
            ps.setString(i++, r.inputSet());
            ps.setString(i++, r.modelSha256());
            ps.setString(i++, r.requested().id());
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
            ps.setString(i++, ResultJson.fallbackPath(r.fallbackPath()).toString());
            ps.setString(i++, ResultJson.strings(r.warnings()).toString());
            ps.setString(i++, p == null ? null : ResultJson.provenance(p).toString());
            ps.setObject(i, r.startedAt() == null ? null : ts(r.startedAt()));
            try (ResultSet rs = ps.executeQuery()) {
                rs.next();
                id = rs.getLong(1);
            }
        }
        if (r.timings() != null && r.timings().samplesMs().length > 0) {
            try (DuckDBAppender ap = conn.createAppender(DuckDBConnection.DEFAULT_SCHEMA, "samples")) {
                double[] s = r.timings().samplesMs();
                for (int k = 0; k < s.length; k++) {
                    ap.beginRow().append(id).append(k).append(s[k]).endRow();
                }
            }
        }
    }

    /** A run's results, in the order written. */
    public List<RunResult> results(String runId) {
        return select("WHERE run_id = ?", ps -> ps.setString(1, runId));
    }

    /** Every result of the store, oldest first. */
    public List<RunResult> allResults() {
        return select("", ps -> { });
    }

    /** The case keys a run already has a result for ({@code run --resume} skips them). */
    public Set<CaseKey> completedCaseKeys(String runId) {
        Set<CaseKey> out = new LinkedHashSet<>();
        query("SELECT DISTINCT case_key FROM results WHERE run_id = ?", ps -> ps.setString(1, runId),
                rs -> out.add(CaseKey.parse(rs.getString(1))));
        return out;
    }

    /** The timed samples of one case of a run (empty when it did not execute or is not stored). */
    public double[] samples(String runId, CaseKey key) {
        List<Double> out = new ArrayList<>();
        query("SELECT s.ms FROM samples s JOIN results r ON s.result_id = r.id WHERE r.run_id = ? AND r.case_key = ? "
                + "ORDER BY r.id DESC, s.idx", ps -> {
                    ps.setString(1, runId);
                    ps.setString(2, key.toString());
                }, rs -> out.add(rs.getDouble(1)));
        return out.stream().mapToDouble(Double::doubleValue).toArray();
    }

    /** Every result of one cell (case on a host), oldest first: the cell's history. */
    public List<RunResult> history(CellKey cell) {
        return select("WHERE case_key = ? AND host_fingerprint IS NOT DISTINCT FROM ?", ps -> {
            ps.setString(1, cell.caseKey().toString());
            ps.setString(2, cell.hostFingerprint());
        });
    }

    /**
     * Timings of the latest result on this host where {@code backend} actually ran and worked (PASSED, or
     * FELL_BACK onto it): the "what it costs" figure beside a fallback.
     *
     * @param browser browser name, or {@code native}/null for native backends
     */
    public Optional<Timings> latestWorkingTimings(String hostFingerprint, ModelFamily suite, String model, BackendId backend,
                                                  String browser) {
        String b = browser == null || browser.equals("native") ? null : browser;
        List<RunResult> l = select("WHERE host_fingerprint IS NOT DISTINCT FROM ? AND suite = ? AND model = ? AND actual = ? "
                + "AND browser IS NOT DISTINCT FROM ? AND status IN ('PASSED', 'FELL_BACK') AND p50_ms IS NOT NULL "
                + "ORDER BY started_at DESC, id DESC LIMIT 1", ps -> {
                    ps.setString(1, hostFingerprint);
                    ps.setString(2, suite.id());
                    ps.setString(3, model);
                    ps.setString(4, backend.id());
                    ps.setString(5, b);
                });
        return l.stream().findFirst().map(RunResult::timings);
    }

    private List<RunResult> select(String where, Binder binder) {
        List<Long> ids = new ArrayList<>();
        List<RunResult> partial = new ArrayList<>();
        String order = where.contains("ORDER BY") ? "" : " ORDER BY started_at, id";
        query("SELECT " + RESULT_COLUMNS + " FROM results " + where + order, binder, rs -> {
            ids.add(rs.getLong(1));
            partial.add(row(rs));
        });
        if (ids.isEmpty()) {
            return partial;
        }
        Map<Long, double[]> samples = loadSamples(where, binder, ids);
        List<RunResult> out = new ArrayList<>(partial.size());
        for (int k = 0; k < partial.size(); k++) {
            RunResult r = partial.get(k);
            Timings t = r.timings();
            if (t != null) {
                double[] s = samples.getOrDefault(ids.get(k), new double[0]);
                t = new Timings(t.loadMs(), t.firstMs(), t.warmups(), s, t.p50Ms(), t.p90Ms(), t.p99Ms(), t.meanMs(),
                        t.stddevMs(), t.throughputPerSec());
                r = new RunResult(r.runId(), r.startedAt(), r.suite(), r.model(), r.inputSet(), r.modelSha256(), r.requested(),
                        r.actual(), r.status(), r.reason(), r.provenance(), t, r.memory(), r.parity(), r.fallbackPath(), r.warnings());
            }
            out.add(r);
        }
        return out;
    }

    private Map<Long, double[]> loadSamples(String where, Binder binder, List<Long> ids) {
        Map<Long, List<Double>> acc = new HashMap<>();
        String sub = where.isEmpty() ? "SELECT id FROM results"
                : where.contains("LIMIT") ? null : "SELECT id FROM results " + where;
        if (sub == null) {
            StringBuilder in = new StringBuilder();
            for (Long id : ids) {
                in.append(in.length() == 0 ? "" : ",").append(id);
            }
            query("SELECT result_id, ms FROM samples WHERE result_id IN (" + in + ") ORDER BY result_id, idx", ps -> { },
                    rs -> acc.computeIfAbsent(rs.getLong(1), k -> new ArrayList<>()).add(rs.getDouble(2)));
        } else {
            query("SELECT result_id, ms FROM samples WHERE result_id IN (" + sub + ") ORDER BY result_id, idx", binder,
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
                    dbl(rs, "p90_ms"), dbl(rs, "p99_ms"), dbl(rs, "mean_ms"), dbl(rs, "stddev_ms"), dbl(rs, "throughput_per_sec"));
        }
        Parity q = null;
        if (rs.getObject("parity_within") != null) {
            q = new Parity(dbl(rs, "max_abs_err"), dbl(rs, "max_rel_err"), dbl(rs, "cosine"), dbl(rs, "tolerance"),
                    rs.getBoolean("parity_within"), rs.getString("parity_against"));
        }
        MemoryUsage m = new MemoryUsage(rs.getLong("rss_before"), rs.getLong("rss_after"), rs.getLong("rss_peak"));
        String actual = rs.getString("actual");
        return new RunResult(rs.getString("run_id"), instant(rs, "started_at"), ModelFamily.parse(rs.getString("suite")),
                rs.getString("model"), rs.getString("input_set"), rs.getString("model_sha256"),
                BackendId.parse(rs.getString("requested")), actual == null ? null : BackendId.parse(actual),
                Status.valueOf(rs.getString("status")), rs.getString("reason"), p, t, m, q,
                ResultJson.fallbackPath(ResultJson.parse(rs.getString("fallback_path"))),
                ResultJson.strings(ResultJson.parse(rs.getString("warnings"))));
    }

    // --------------------------------------------------------------- export/merge support

    /** Raw rows for {@link StoreExport}: runs as JSON-ready values. */
    List<Map<String, Object>> rawRows(String sql) {
        List<Map<String, Object>> out = new ArrayList<>();
        query(sql, ps -> { }, rs -> {
            Map<String, Object> row = new java.util.LinkedHashMap<>();
            int n = rs.getMetaData().getColumnCount();
            for (int i = 1; i <= n; i++) {
                Object v = rs.getObject(i);
                if (v instanceof Timestamp ts) {
                    v = ts.toLocalDateTime().toInstant(ZoneOffset.UTC).toString();
                } else if (v instanceof LocalDateTime ldt) {
                    v = ldt.toInstant(ZoneOffset.UTC).toString();
                }
                row.put(rs.getMetaData().getColumnLabel(i), v);
            }
            out.add(row);
        });
        return out;
    }

    /** Imports one exported run (run row, probes, results) in one transaction; false when the run id exists already. */
    boolean importRun(RunInfo run, List<Availability> probes, List<RunResult> results) {
        if (run(run.runId()).isPresent()) {
            return false;
        }
        inTransaction(() -> {
            try (PreparedStatement ps = conn.prepareStatement("INSERT INTO runs VALUES (?, ?, ?, ?, ?, ?, ?, ?)")) {
                ps.setString(1, run.runId());
                ps.setObject(2, ts(run.startedAt()));
                ps.setObject(3, run.finishedAt() == null ? null : ts(run.finishedAt()));
                // a run imported as "running" was exported mid-run; here it can only be interrupted
                ps.setString(4, run.status() == RunStatus.RUNNING ? RunStatus.INTERRUPTED.db() : run.status().db());
                ps.setString(5, run.hostFingerprint());
                ps.setString(6, run.toolkitVersion());
                ps.setString(7, ResultJson.mapJson(run.runtimeVersions()));
                ps.setString(8, run.planJson());
                ps.executeUpdate();
            }
            for (Availability a : probes) {
                try (PreparedStatement ps = conn.prepareStatement("INSERT INTO probes VALUES (?, ?, ?, ?, ?)")) {
                    ps.setString(1, run.runId());
                    ps.setString(2, a.backend().id());
                    ps.setString(3, a.where());
                    ps.setBoolean(4, a.available());
                    ps.setString(5, a.evidence());
                    ps.executeUpdate();
                }
            }
            for (RunResult r : results) {
                insert(r);
            }
        });
        return true;
    }

    void importHost(String fingerprint, String hostname, String detectJson, Instant firstSeen, Instant lastSeen) {
        inTransaction(() -> upsertHost(fingerprint, hostname, detectJson, firstSeen, lastSeen));
    }

    // --------------------------------------------------------------- helpers

    @FunctionalInterface
    interface Binder {
        void bind(PreparedStatement ps) throws SQLException;
    }

    @FunctionalInterface
    interface RowReader {
        void read(ResultSet rs) throws SQLException;
    }

    @FunctionalInterface
    interface Work {
        void run() throws SQLException;
    }

    private void query(String sql, Binder binder, RowReader reader) {
        try (PreparedStatement ps = conn.prepareStatement(sql)) {
            binder.bind(ps);
            try (ResultSet rs = ps.executeQuery()) {
                while (rs.next()) {
                    reader.read(rs);
                }
            }
        } catch (SQLException e) {
            throw new StoreException("Reading the matrix store " + path + " failed: " + firstLine(e),
                    "the file may be damaged; export what can be read with 'accelbridge export' and start a new store", e);
        }
    }

    private int queryInt(String sql) {
        int[] v = {0};
        query(sql, ps -> { }, rs -> v[0] = rs.getInt(1));
        return v[0];
    }

    private void update(String sql, String arg) {
        inTransaction(() -> {
            try (PreparedStatement ps = conn.prepareStatement(sql)) {
                ps.setString(1, arg);
                ps.executeUpdate();
            }
        });
    }

    private void inTransaction(Work w) {
        try {
            conn.setAutoCommit(false);
            try {
                w.run();
                conn.commit();
            } catch (SQLException | RuntimeException e) {
                conn.rollback();
                throw e;
            } finally {
                conn.setAutoCommit(true);
            }
        } catch (SQLException e) {
            throw new StoreException("Writing to the matrix store " + path + " failed: " + firstLine(e),
                    "check free disk space and permissions; results written before are kept", e);
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

    static LocalDateTime ts(Instant i) {
        return LocalDateTime.ofInstant(i.truncatedTo(ChronoUnit.MICROS), ZoneOffset.UTC);
    }

    private static Instant instant(ResultSet rs, Object col) throws SQLException {
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

    private static String firstLine(SQLException e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    private void closeQuietly() {
        try {
            conn.close();
        } catch (SQLException ignored) {
            // already failing; the original error is what the user needs
        }
    }

    /** Closes the connection (checkpointing the file). Runs begun and not finished stay "running" until next open. */
    @Override
    public void close() {
        try {
            conn.close();
        } catch (SQLException e) {
            throw new StoreException("Closing the matrix store " + path + " failed: " + firstLine(e),
                    "results already written are kept", e);
        }
    }
}
