package dev.accelbridge.tools.dashboard;

import dev.accelbridge.reports.history.RegressionDetector;
import dev.accelbridge.reports.store.MatrixStore;

import java.nio.file.Path;
import java.time.Duration;

/**
 * The dashboard over one store: its API, live feed, run launcher and routes, made and closed together; what
 * {@code accelbridge dashboard} and {@code accelbridge serve} mount on their server.
 */
public final class Dashboard implements AutoCloseable {
    private final DashboardApi api;
    private final LiveFeed live;
    private final RunLauncher launcher;
    private final DashboardRoutes routes;

    /**
     * @param store  the store shown and written by runs started from the page
     * @param outDir where those runs write their reports and logs
     * @param poll   how often the live feed reads the store while a page listens
     */
    public Dashboard(MatrixStore store, Path outDir, Duration poll) {
        this.api = new DashboardApi(store, RegressionDetector.defaults());
        this.live = new LiveFeed(store, poll);
        this.launcher = new RunLauncher(store, outDir);
        this.routes = new DashboardRoutes(api, live, launcher);
    }

    /** The routes to mount on the bridge. */
    public DashboardRoutes routes() {
        return routes;
    }

    /** The API (for the Java API and tests). */
    public DashboardApi api() {
        return api;
    }

    /** The launcher. */
    public RunLauncher launcher() {
        return launcher;
    }

    /** Stops the live feed and a run started from the page. */
    @Override
    public void close() {
        live.close();
        launcher.stop();
    }
}
