package dev.accelbridge.reports.store;

import dev.accelbridge.reports.StoreException;
import org.duckdb.DuckDBConnection;

import java.nio.file.Path;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.Properties;

/**
 * The store's connection to DuckDB, and the only place that opens one. DuckDB lets one process at a time hold a
 * file (a second one, even read-only, gets "Could not set lock"), so a run does not keep the file: in
 * <em>shared</em> mode every operation opens, works and closes (≈20 ms, against cases of ≥100 ms), and
 * {@code report}, {@code export} or a second run get the file between two cases. Opening waits while another
 * process holds the lock, up to {@code lockWait}. In <em>held</em> mode the connection stays open until close.
 */
final class Db implements AutoCloseable {
    private final Path path;
    private final boolean readOnly;
    private final boolean shared;
    private final Duration lockWait;
    private DuckDBConnection held;

    Db(Path path, boolean readOnly, boolean shared, Duration lockWait) {
        this.path = path;
        this.readOnly = readOnly;
        this.shared = shared;
        this.lockWait = lockWait;
    }

    Path path() {
        return path;
    }

    boolean readOnly() {
        return readOnly;
    }

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
        void run(DuckDBConnection c) throws SQLException;
    }

    /** Opens a connection to {@code path}, waiting while another process holds the file's lock. */
    static DuckDBConnection connect(Path path, boolean readOnly, Duration lockWait) throws SQLException {
        Properties props = new Properties();
        if (readOnly) {
            props.setProperty("duckdb.read_only", "true");
        }
        long deadline = System.nanoTime() + lockWait.toNanos();
        long pause = 20;
        while (true) {
            try {
                return (DuckDBConnection) DriverManager.getConnection("jdbc:duckdb:" + path, props);
            } catch (SQLException e) {
                if (!DuckDbErrors.isLockConflict(e) || System.nanoTime() > deadline) {
                    throw e;
                }
                try {
                    Thread.sleep(pause);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    throw e;
                }
                pause = Math.min(pause * 2, 250);
            }
        }
    }

    /** Runs {@code w} on a connection (the held one, or one opened for it in shared mode). */
    synchronized void with(Work w) throws SQLException { // one operation at a time per store object (the dashboard reads from several threads)
        if (held != null) {
            w.run(held);
            return;
        }
        DuckDBConnection c = connect(path, readOnly, lockWait);
        if (!shared) {
            held = c;
            w.run(c);
            return;
        }
        try (c) {
            w.run(c);
        }
    }

    /** A query; a DuckDB error becomes a {@link StoreException} with DuckDB's own words. */
    void query(String sql, Binder binder, RowReader reader) {
        try {
            with(c -> {
                try (PreparedStatement ps = c.prepareStatement(sql)) {
                    binder.bind(ps);
                    try (ResultSet rs = ps.executeQuery()) {
                        while (rs.next()) {
                            reader.read(rs);
                        }
                    }
                }
            });
        } catch (SQLException e) {
            throw DuckDbErrors.reading(path, e);
        }
    }

    /** One transaction; rolled back whole on any error. */
    void inTransaction(Work w) {
        if (readOnly) {
            throw new IllegalStateException("the matrix store " + path + " was opened read-only");
        }
        try {
            with(c -> {
                c.setAutoCommit(false);
                try {
                    w.run(c);
                    c.commit();
                } catch (SQLException | RuntimeException e) {
                    try {
                        c.rollback();
                    } catch (SQLException ignored) {
                        // DuckDB may have ended the transaction itself; the original error is the one to report
                    }
                    throw e;
                } finally {
                    try {
                        c.setAutoCommit(true);
                    } catch (SQLException ignored) {
                        // the connection is unusable; the next operation reopens in shared mode
                    }
                }
            });
        } catch (SQLException e) {
            throw DuckDbErrors.writing(path, e);
        }
    }

    @Override
    public void close() {
        if (held != null) {
            try {
                held.close();
            } catch (SQLException e) {
                throw DuckDbErrors.writing(path, e);
            } finally {
                held = null;
            }
        }
    }
}
