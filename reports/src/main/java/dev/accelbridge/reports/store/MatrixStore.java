package dev.accelbridge.reports.store;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Timings;
import dev.accelbridge.reports.StoreException;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * The shared compatibility matrix: an embedded DuckDB file holding runs, hosts, probes, results (one row per case)
 * and samples (every timed iteration). A facade over parts with one job each: {@link StoreFile} (opening, migration),
 * {@link RunLedger} (runs, probes, hosts), {@link ResultInserts} and {@link ResultRows} (results written, read): one job,
 * the store's face, each member handing off in a line or two, so it stays whole near the size limit.
 *
 * <p>Opening. {@link #open} (read-write) and {@link #openReadOnly} never modify a file they refuse: the verdict
 * rests on DuckDB's own errors while reading every table through in a read-only connection and, before a
 * read-write open, on a trial write on a copy. A read-only open of an older schema reads a migrated temporary copy.
 *
 * <p>Sharing. {@link #open} keeps the connection; {@link #openForRun} opens DuckDB per operation, so other
 * processes ({@code report}, {@code export}, another run) get the file between two cases. A live run holds a lock
 * file ({@link RunLocks}); a run still marked running whose lock nobody holds was interrupted, and
 * {@link #completedCases} tells {@code run --resume} what to skip.
 *
 * <p>Durability. {@link #write(RunResult)} is one transaction per case. Not thread-safe: one writer per instance.
 */
@PublicApi
public final class MatrixStore implements AutoCloseable {
    /** How long an open waits while another process holds the file. */
    static final Duration LOCK_WAIT = Duration.ofSeconds(30);

    private final Path path;
    private final Db db;
    private final RunLedger ledger;
    private final ResultRows rows;
    private final Path tempCopy;
    private final RunLocks locks;

    private MatrixStore(Path path, Db db, Path tempCopy) {
        this.path = path;
        this.db = db;
        this.locks = new RunLocks(path);
        this.ledger = new RunLedger(db, locks);
        this.rows = new ResultRows(db);
        this.tempCopy = tempCopy;
    }

    /** {@code ~/.accelbridge/matrix.duckdb} ({@code user.home} comes from passwd, not {@code $HOME}). */
    public static Path defaultPath() {
        return Path.of(System.getProperty("user.home"), ".accelbridge", "matrix.duckdb");
    }

    /**
     * The store a command or session uses: {@code explicit} when given ({@code --db}, a session option), else
     * {@code $ACCELBRIDGE_DB}, else {@link #defaultPath()}: one rule, so the CLI, the dashboard and tests using the Java
     * API or the JUnit extension meet in the same file unless told otherwise.
     */
    public static Path resolve(Path explicit) {
        if (explicit != null) {
            return explicit;
        }
        String env = System.getenv("ACCELBRIDGE_DB");
        return env != null && !env.isBlank() ? Path.of(env) : defaultPath();
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
     * Opens (creating when absent) the store read-write and keeps the connection, migrating an older schema
     * forward; runs left running by a dead process are marked interrupted.
     *
     * @throws StoreException for a file that is not a DuckDB database or not an Accelbridge store, a newer schema,
     *                        or a file DuckDB reports damaged or cannot lock; the file is left as it was
     */
    public static MatrixStore open(Path path) {
        return openWritable(path, false);
    }

    /** Same as {@link #open}, but DuckDB is opened per operation so other processes may read between cases. */
    public static MatrixStore openForRun(Path path) {
        return openWritable(path, true);
    }

    private static MatrixStore openWritable(Path path, boolean shared) {
        Path p = path.toAbsolutePath();
        Db db = StoreFile.openWritable(p, shared, LOCK_WAIT);
        MatrixStore s = new MatrixStore(p, db, null);
        try {
            s.ledger.markInterrupted();
        } catch (RuntimeException e) {
            db.close();
            throw e;
        }
        return s;
    }

    /**
     * Opens an existing store read-only (for {@code report}, {@code export}): no lock is taken beyond DuckDB's
     * shared read, nothing is written, and a read-only file works.
     *
     * @throws StoreException when the file is absent, refused (as for {@link #open}), or locked past the wait
     */
    public static MatrixStore openReadOnly(Path path) {
        Path p = path.toAbsolutePath();
        if (!Files.exists(p)) {
            throw new StoreException("No matrix store at " + p, "run 'accelbridge run' first, or point --db at an existing store");
        }
        StoreFile.Inspection in = StoreFile.inspect(p, false, LOCK_WAIT);
        Path read = p;
        Path temp = null;
        if (in.schemaVersion() < Migrations.CURRENT || in.lacksVersionColumns()) {
            temp = StoreFile.migratedCopy(p, LOCK_WAIT);
            read = temp;
        }
        return new MatrixStore(p, new Db(read, true, true, LOCK_WAIT), temp);
    }

    /** The schema version of the open store. */
    public int schemaVersion() {
        int[] v = {0};
        db.query("SELECT max(version) FROM schema_version", ps -> { }, rs -> v[0] = rs.getInt(1));
        return v[0];
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
        return ledger.begin(host, toolkitVersion, runtimeVersions, planJson);
    }

    /** Marks a run running again: an interrupted one ({@code run --resume}), or with {@code finishedToo} a finished one. */
    public void resumeRun(String runId, boolean finishedToo) {
        ledger.resume(runId, finishedToo);
    }

    /** Marks a run finished. */
    public void finishRun(String runId) {
        ledger.finish(runId);
    }

    /** Keeps where a run's wall time went (its account, as JSON) in the run ledger, replacing an earlier one. */
    public void recordAccount(String runId, String accountJson) {
        ledger.recordAccount(runId, accountJson);
    }

    /** A run's account of its wall time (JSON), when it recorded one. */
    public Optional<String> account(String runId) {
        return ledger.account(runId);
    }

    /** Records a probe's answer for a run. */
    public void recordProbe(String runId, Availability a) {
        ledger.recordProbe(runId, a);
    }

    /** The probe answers recorded for a run, in recording order. */
    public List<Availability> probes(String runId) {
        return ledger.probes(runId);
    }

    /** One run's bookkeeping. */
    public Optional<RunInfo> run(String runId) {
        return ledger.run(runId);
    }

    /** Every run, oldest first. */
    public List<RunInfo> runs() {
        return ledger.runs("", null);
    }

    /**
     * Runs a live process is running now (in this process or another), oldest first: a run marked running whose
     * process died is not among them, even before the next writable open marks it interrupted.
     */
    public List<RunInfo> liveRuns() {
        return ledger.runs("WHERE r.status = 'running'", null).stream().filter(r -> locks.alive(r.runId())).toList();
    }

    /**
     * Records where the cases of live run {@code runId} are now (a JSON array, one entry per lane running a case; empty:
     * none): a file beside the run's lock, not a store write, read by {@link #caseProgress}.
     */
    public void recordCaseProgress(String runId, String json) {
        locks.writeProgress(runId, json);
    }

    /** What {@link #recordCaseProgress} last recorded for {@code runId}, in this process or another. */
    public Optional<String> caseProgress(String runId) {
        return locks.readProgress(runId);
    }

    /** Runs a process left unfinished, oldest first. */
    public List<RunInfo> interruptedRuns() {
        return ledger.runs("WHERE r.status = 'interrupted'", null);
    }

    /** The newest run (by start time), if any. */
    public Optional<String> latestRun() {
        return ledger.latest();
    }

    /** Records what model files are (op types and opset for the conformance view, cost for the roof), in one transaction. */
    public void recordModels(List<ModelEntry> models) {
        ledger.recordModels(models);
    }

    /** The op types of every model the store knows, by the model file's sha256. */
    public Map<String, List<String>> modelOps() {
        return ledger.modelOps();
    }

    /** What one inference of each recorded model costs, by the file's sha256. */
    public Map<String, dev.accelbridge.core.ModelCost> modelCosts() {
        return ledger.modelCosts();
    }

    /**
     * Records a host that ran cases of a run without being the run's own host (a Selenium Grid node, a device that joined
     * {@code serve}), so its results' fingerprint names a known host.
     */
    public void recordHost(HostInfo host) {
        java.time.Instant now = java.time.Instant.now();
        db.inTransaction(c -> ledger.upsertHost(c, host.fingerprint(), host.hostname(), ResultJson.host(host).toString(), now, now));
    }

    /** Every host seen, keyed by fingerprint, with its detect output. */
    public Map<String, HostInfo> hosts() {
        return ledger.hosts();
    }

    // --------------------------------------------------------------- results

    /** Writes one case: the result row and its samples, in one transaction. */
    public void write(RunResult r) {
        db.inTransaction(c -> ResultInserts.insert(c, r));
    }

    /** Writes several cases in one transaction (bulk import, benchmarks). */
    public void writeAll(List<RunResult> results) {
        db.inTransaction(c -> ResultInserts.insertAll(c, results));
    }

    /** A run's results, in the order written. */
    public List<RunResult> results(String runId) {
        return rows.select("WHERE run_id = ?", ps -> ps.setString(1, runId));
    }

    /** Every result of the store, oldest first. */
    public List<RunResult> allResults() {
        return rows.select("", ps -> { });
    }

    /** The cases a run already has a result for ({@code run --resume} skips them). */
    public Set<CaseId> completedCases(String runId) {
        Set<CaseId> out = new LinkedHashSet<>();
        results(runId).forEach(r -> out.add(r.id()));
        return out;
    }

    /** Every result of one cell (case on a host), oldest first: the cell's history. */
    public List<RunResult> history(CaseId.CellId cell) {
        return rows.history(cell);
    }

    /**
     * Timings of the latest result on this host where {@code backend} actually ran and worked (PASSED, or
     * FELL_BACK onto it) for the same model, inputs, precision, batch and lane as {@code id}: the "what it costs"
     * figure beside a fallback.
     */
    public Optional<Timings> latestWorkingTimings(String hostFingerprint, CaseId id, BackendId backend) {
        return rows.latestWorkingTimings(hostFingerprint, id, backend);
    }

    // --------------------------------------------------------------- export/merge support

    /** Raw host rows for {@link StoreExport}. */
    List<Object[]> hostRows() {
        return ledger.hostRows();
    }

    /**
     * Imports one run of an export: the run row and its probes when the run is new, and every result the store
     * does not have yet (a result is identified by its run and its case). Idempotent per result.
     *
     * @return how many results were new
     */
    int importRun(RunInfo run, List<Availability> probes, List<RunResult> results) {
        boolean newRun = run(run.runId()).isEmpty();
        Set<CaseId> have = newRun ? Set.of() : completedCases(run.runId());
        List<RunResult> fresh = results.stream().filter(r -> !have.contains(r.id())).toList();
        if (!newRun && fresh.isEmpty()) {
            return 0;
        }
        ledger.importRun(run, newRun, probes, fresh);
        return fresh.size();
    }

    void importHost(String fingerprint, String hostname, String detectJson, java.time.Instant firstSeen,
                    java.time.Instant lastSeen) {
        db.inTransaction(c -> ledger.upsertHost(c, fingerprint, hostname, detectJson, firstSeen, lastSeen));
    }

    /**
     * Closes the connection (checkpointing the file); a migrated temporary copy is removed. Runs begun here and not
     * finished are left running; the next open marks them interrupted, and {@code --resume} finishes them.
     */
    @Override
    public void close() {
        try {
            db.close();
        } finally {
            locks.releaseAll();
            if (tempCopy != null) {
                StoreFile.deleteQuietly(tempCopy.getParent());
            }
        }
    }
}
