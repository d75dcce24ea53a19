package dev.accelbridge.reports.store;

import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;

/** A store file as an older Accelbridge left it: the migrations up to {@code version} applied, one run row to hang results on. */
final class OlderStore {
    private OlderStore() {
    }

    /** Makes {@code f} at schema {@code version} with a finished run {@code runId}, and gives a connection to fill it. */
    static Connection at(Path f, int version, String runId) throws SQLException {
        Connection c = DriverManager.getConnection("jdbc:duckdb:" + f);
        try (Statement st = c.createStatement()) {
            for (Migrations.Migration m : Migrations.ALL.subList(0, version)) {
                for (String sql : m.statements()) {
                    st.execute(sql);
                }
                st.execute("INSERT INTO schema_version VALUES (" + m.toVersion() + ", 'test', now())");
            }
            st.execute("INSERT INTO runs (run_id, started_at, status) VALUES ('" + runId + "', now(), 'finished')");
        }
        return c;
    }
}
