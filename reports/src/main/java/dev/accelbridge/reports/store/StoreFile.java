package dev.accelbridge.reports.store;

import dev.accelbridge.core.LaneSide;
import dev.accelbridge.reports.StoreException;
import org.duckdb.DuckDBConnection;

import dev.accelbridge.core.Dimension;
import dev.accelbridge.core.VersionAxes;
import dev.accelbridge.core.VersionAxis;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.time.Duration;
import java.time.Instant;
import java.util.Comparator;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;

/**
 * The store's file: checks an existing file before anything may change it, and migrates the schema forward.
 *
 * <p>Every verdict rests on what DuckDB itself reports, never on a rule of ours about the file's layout (a healthy
 * DuckDB file is often shorter than the blocks its header counts, since DuckDB truncates free blocks at a
 * checkpoint). Inspection reads, in a read-only connection: the magic bytes, the catalog, the schema version and
 * every row of every table (DuckDB checks each block's checksum as it reads it). Damage that a read-through does not
 * reach (index blocks, which DuckDB loads only when a write needs them) is found by a trial: the file is copied
 * aside and a case-shaped write is committed and checkpointed on the copy. A refused file is never modified.
 */
final class StoreFile {
    private static final byte[] MAGIC = "DUCK".getBytes(StandardCharsets.US_ASCII);
    private static final String UNTOUCHED = "; the file was left untouched";

    /**
     * What a run writes, table by table, through every primary key and index (DuckDB loads index blocks only when a
     * write needs them), then a checkpoint that rewrites what changed.
     */
    private static final List<String> TRIAL = List.of(
            "INSERT INTO hosts VALUES ('trial-host', 'trial', '{}', now(), now())",
            "UPDATE hosts SET last_seen = now() WHERE fingerprint = (SELECT min(fingerprint) FROM hosts)",
            "INSERT INTO runs (run_id, started_at, finished_at, status, host_fingerprint, toolkit_version, runtime_versions, plan) VALUES ('trial-run', now(), NULL, 'running', 'trial-host', 'trial', '{}', '{}')",
            "UPDATE runs SET status = status WHERE run_id IN (SELECT run_id FROM runs)",
            "INSERT INTO probes VALUES ('trial-run', 'cpu', 'native', true, 'trial')",
            "INSERT OR REPLACE INTO models VALUES ('trial-sha', 'trial', 17, '[]', NULL, NULL)",
            "INSERT INTO results (run_id, suite, model, requested, status, lane) "
                    + "VALUES ('trial-run', 'other', 'trial', 'cpu', 'FAILED', 'native')",
            "INSERT INTO samples SELECT max(id), 0, 1.0 FROM results",
            "UPDATE runs SET status = 'finished', finished_at = now() WHERE run_id = 'trial-run'",
            "SELECT count(*) FROM results WHERE run_id IN (SELECT run_id FROM runs)");

    private StoreFile() {
    }

    /** What inspection found. */
    /**
     * What an inspection found.
     *
     * @param schemaVersion      the newest migration applied
     * @param lacksVersionColumns a version axis on the class path has no column there yet (added when the store is migrated)
     */
    record Inspection(int schemaVersion, boolean lacksVersionColumns) {
    }

    /**
     * Inspects an existing file.
     *
     * @param trialWrite also prove, on a copy, that DuckDB can write to it (for opens that will write)
     */
    static Inspection inspect(Path p, boolean trialWrite, Duration lockWait) {
        checkHeader(p);
        int version;
        boolean lacks;
        try (DuckDBConnection c = Db.connect(p, true, lockWait); Statement st = c.createStatement()) {
            Set<String> tables = tables(st);
            if (!tables.contains("schema_version")) {
                throw new StoreException("The DuckDB database " + p + " is not an Accelbridge matrix store (no schema_version table; "
                        + (tables.isEmpty() ? "it has no tables" : "its tables are " + tables) + ")",
                        "point --db at an Accelbridge store, or at a path that does not exist yet to create one" + UNTOUCHED);
            }
            Set<String> unknown = new TreeSet<>(tables);
            unknown.removeAll(Migrations.KNOWN_TABLES);
            if (!unknown.isEmpty()) {
                throw new StoreException("The DuckDB database " + p + " has tables an Accelbridge store does not have: " + unknown,
                        "point --db at a store written by Accelbridge only" + UNTOUCHED);
            }
            try (ResultSet rs = st.executeQuery("SELECT coalesce(max(version), 0) FROM schema_version")) {
                rs.next();
                version = rs.getInt(1);
            }
            if (version > Migrations.CURRENT) {
                throw new StoreException("The matrix store " + p + " has schema version " + version + ", newer than this Accelbridge's "
                        + Migrations.CURRENT, "upgrade Accelbridge to read it, or use another --db PATH" + UNTOUCHED);
            }
            Set<String> columns = new java.util.HashSet<>();
            try (ResultSet rs = st.executeQuery("SELECT column_name FROM information_schema.columns WHERE table_name = 'results'")) {
                while (rs.next()) {
                    columns.add(rs.getString(1));
                }
            }
            lacks = !columns.containsAll(VersionAxes.dimensions().stream().map(Dimension::column).toList());
            for (String t : tables) {
                try (ResultSet rs = st.executeQuery("SELECT * FROM \"" + t + "\"")) {
                    int n = rs.getMetaData().getColumnCount();
                    while (rs.next()) {
                        for (int i = 1; i <= n; i++) {
                            rs.getObject(i);
                        }
                    }
                }
            }
        } catch (SQLException e) {
            throw refused(p, e);
        }
        if (trialWrite) {
            trial(p, lockWait);
        }
        return new Inspection(version, lacks);
    }

    private static void checkHeader(Path p) {
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
                    "point --db at an Accelbridge store, or at a path that does not exist yet to create one" + UNTOUCHED);
        }
    }

    /** Migrates and writes a case-shaped row on a copy; DuckDB's error on the copy refuses the original. */
    private static void trial(Path p, Duration lockWait) {
        Path dir = null;
        try {
            dir = Files.createTempDirectory("accelbridge-store-trial");
            Path copy = dir.resolve("trial.duckdb");
            Files.copy(p, copy, StandardCopyOption.COPY_ATTRIBUTES);
            Path wal = p.resolveSibling(p.getFileName() + ".wal");
            if (Files.exists(wal)) {
                Files.copy(wal, dir.resolve("trial.duckdb.wal"));
            }
            try (DuckDBConnection c = Db.connect(copy, false, lockWait)) {
                migrate(c);
                c.setAutoCommit(false);
                try (Statement st = c.createStatement()) {
                    for (String sql : TRIAL) {
                        st.execute(sql);
                    }
                }
                c.commit();
                c.setAutoCommit(true);
                try (Statement st = c.createStatement()) {
                    st.execute("CHECKPOINT");
                }
            }
        } catch (SQLException e) {
            throw refused(p, e);
        } catch (IOException e) {
            throw new StoreException("Cannot check the matrix store " + p + " on a copy: " + e.getMessage(),
                    "free some space in " + System.getProperty("java.io.tmpdir") + UNTOUCHED, e);
        } finally {
            deleteQuietly(dir);
        }
    }

    private static StoreException refused(Path p, SQLException e) {
        if (DuckDbErrors.isLockConflict(e)) {
            return new StoreException("The matrix store " + p + " is in use by another process: " + DuckDbErrors.firstLine(e),
                    "wait for that process to finish, or use another --db PATH" + UNTOUCHED, e);
        }
        return new StoreException("The file " + p + " has a DuckDB header but DuckDB cannot use it: " + DuckDbErrors.firstLine(e),
                "restore it from a backup, or use another --db PATH (a new file is created when absent)" + UNTOUCHED, e);
    }

    static Set<String> tables(Statement st) throws SQLException {
        Set<String> tables = new TreeSet<>();
        try (ResultSet rs = st.executeQuery("SELECT table_name FROM information_schema.tables "
                + "WHERE table_catalog = current_database() AND table_schema = 'main'")) {
            while (rs.next()) {
                tables.add(rs.getString(1));
            }
        }
        return tables;
    }

    /**
     * Applies the missing migrations in order, each in its own transaction, then gives every version axis on the class path
     * its column (an axis is a declaration, not a migration: a store opened with a new axis gains its column, null in the
     * rows written before).
     */
    static void migrate(DuckDBConnection conn) throws SQLException {
        int v;
        try (Statement st = conn.createStatement()) {
            if (tables(st).contains("schema_version")) {
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
                    ps.setObject(3, ResultRows.ts(Instant.now()));
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
        try (Statement st = conn.createStatement()) {
            Set<String> had = new java.util.HashSet<>();
            try (ResultSet rs = st.executeQuery("SELECT column_name FROM information_schema.columns WHERE table_name = 'results'")) {
                while (rs.next()) {
                    had.add(rs.getString(1));
                }
            }
            for (VersionAxis a : VersionAxes.all()) {
                String column = a.dimension().column();
                if (had.contains(column)) {
                    continue;
                }
                st.execute("ALTER TABLE results ADD COLUMN IF NOT EXISTS " + column + " VARCHAR");
                String older = a.olderRecordsTake();
                if (older != null) { // known of every record of its side made before the axis existed
                    try (PreparedStatement ps = conn.prepareStatement("UPDATE results SET " + column + " = ? WHERE lane "
                            + (a.side() == LaneSide.BROWSER ? "<>" : "=") + " 'native'")) {
                        ps.setString(1, older);
                        ps.executeUpdate();
                    }
                }
            }
        }
    }

    /** A migrated copy of an older store, for a read-only open that must not change the original. */
    static Path migratedCopy(Path p, Duration lockWait) {
        try {
            Path dir = Files.createTempDirectory("accelbridge-store-ro");
            Path copy = dir.resolve(p.getFileName().toString());
            Files.copy(p, copy);
            try (DuckDBConnection c = Db.connect(copy, false, lockWait)) {
                migrate(c);
            }
            return copy;
        } catch (SQLException e) {
            throw refused(p, e);
        } catch (IOException e) {
            throw new StoreException("Cannot read the older matrix store " + p + " through a copy: " + e.getMessage(),
                    "free some space in " + System.getProperty("java.io.tmpdir") + UNTOUCHED, e);
        }
    }

    static void deleteQuietly(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(f -> f.toFile().delete());
        } catch (IOException ignored) {
            // a temporary folder left behind is harmless
        }
    }

    /**
     * The store at {@code p} opened read-write (created with its folder when absent), checked first and migrated forward.
     *
     * @throws StoreException for a file that is not an Accelbridge store, a newer schema, a damaged or locked file; the
     *                        file is left as it was
     */
    static Db openWritable(Path p, boolean shared, java.time.Duration lockWait) {
        if (Files.exists(p)) {
            inspect(p, true, lockWait);
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
        Db db = new Db(p, false, shared, lockWait);
        try {
            db.with(StoreFile::migrate);
        } catch (java.sql.SQLException e) {
            db.close();
            throw new StoreException("Cannot prepare the matrix store " + p + ": " + DuckDbErrors.firstLine(e),
                    DuckDbErrors.fix(p, e, ""), e);
        }
        return db;
    }
}
