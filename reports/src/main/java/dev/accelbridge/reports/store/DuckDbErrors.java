package dev.accelbridge.reports.store;

import dev.accelbridge.reports.StoreException;

import java.nio.file.Path;
import java.sql.SQLException;
import java.util.Locale;

/**
 * Turns DuckDB's errors into store errors whose fix matches what DuckDB actually said: damage, a lock held by
 * another process, disk or permission trouble. Never guesses a cause DuckDB did not name.
 */
final class DuckDbErrors {
    private DuckDbErrors() {
    }

    /** DuckDB's first line (its messages carry a stack of context after it). */
    static String firstLine(Throwable e) {
        String m = e.getMessage() == null ? e.toString() : e.getMessage();
        int nl = m.indexOf('\n');
        return nl < 0 ? m : m.substring(0, nl);
    }

    static boolean isLockConflict(SQLException e) {
        String m = String.valueOf(e.getMessage());
        return m.contains("Could not set lock") || m.contains("Conflicting lock");
    }

    static boolean isCorruption(Throwable e) {
        String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        return m.contains("corrupt") || m.contains("checksum") || m.contains("serialization error")
                || m.contains("invalid block") || m.contains("truncated");
    }

    static boolean isDiskOrPermission(Throwable e) {
        String m = String.valueOf(e.getMessage()).toLowerCase(Locale.ROOT);
        return m.contains("no space") || m.contains("permission denied") || m.contains("read-only file system")
                || m.contains("disk full");
    }

    /** The fix for an error DuckDB gave while using {@code path}. */
    static String fix(Path path, Throwable e, String afterwards) {
        if (isLockConflict(e instanceof SQLException s ? s : new SQLException(e))) {
            return "another process is using " + path + " (DuckDB allows one at a time): wait for it, or use another --db PATH"
                    + afterwards;
        }
        if (isCorruption(e)) {
            return "the file is damaged: export what can be read with 'accelbridge export', restore a backup, or use "
                    + "another --db PATH" + afterwards;
        }
        if (isDiskOrPermission(e)) {
            return "check free disk space and the permissions of " + path.getParent() + afterwards;
        }
        return "use another --db PATH, or restore the file from a backup" + afterwards;
    }

    static StoreException reading(Path path, SQLException e) {
        return new StoreException("Reading the matrix store " + path + " failed: " + firstLine(e), fix(path, e, ""), e);
    }

    static StoreException writing(Path path, SQLException e) {
        return new StoreException("Writing to the matrix store " + path + " failed: " + firstLine(e),
                fix(path, e, "; results written before are kept"), e);
    }
}
