package dev.accelbridge.tools.cli;

import dev.accelbridge.tools.dashboard.Dashboard;
import dev.accelbridge.bridge.BridgeOptions;
import dev.accelbridge.bridge.BridgeServer;
import dev.accelbridge.reports.store.MatrixStore;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * {@code accelbridge dashboard}: the live dashboard over a store (matrix explorer, case drill-down, comparisons, runs in
 * progress, starting a run, recommendations) and its JSON API (docs/dashboard.md), until stopped with Ctrl-C.
 */
@Command(name = "dashboard", mixinStandardHelpOptions = true,
        description = "Serves the live dashboard over the store at http://HOST:PORT/dashboard/ and its JSON API under /api/ "
                + "(docs/dashboard.md) until Ctrl-C.")
public final class DashboardCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common = new CommonOptions();

    @Mixin
    BindArgs bind = new BindArgs();

    @Option(names = "--out", paramLabel = "DIR", description = "Where runs started from the page write their reports and logs (default: accelbridge-out).")
    Path out = Path.of("accelbridge-out");

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws InterruptedException {
        PrintWriter out0 = spec.commandLine().getOut();
        BridgeOptions options = bind.options().build();
        CountDownLatch stop = new CountDownLatch(1);
        try (MatrixStore store = MatrixStore.openForRun(common.dbPath());
             Dashboard dashboard = new Dashboard(store, out, Duration.ofSeconds(1));
             BridgeServer server = BridgeServer.start(options, List.of(dashboard.routes()))) {
            Runtime.getRuntime().addShutdownHook(new Thread(() -> {
                dashboard.launcher().stop(); // a run started from the page ends with the dashboard (--resume finishes it)
                stop.countDown();
            }, "accelbridge-dashboard-stop"));
            out0.println("Dashboard: " + server.url("/dashboard/"));
            server.remoteUrls("/dashboard/").forEach(u -> out0.println("From another machine: " + u));
            BindArgs.describeTls(options, out0);
            out0.println("Store: " + store.path());
            out0.flush();
            stop.await();
        }
        return Main.OK;
    }
}
