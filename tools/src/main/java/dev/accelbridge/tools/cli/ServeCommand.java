package dev.accelbridge.tools.cli;

import dev.accelbridge.api.Accelbridge;
import dev.accelbridge.api.AccelbridgeSession;
import dev.accelbridge.api.CaseResult;
import dev.accelbridge.api.RunRequest;
import dev.accelbridge.api.SessionOptions;
import dev.accelbridge.api.SessionRun;
import dev.accelbridge.bridge.BridgeOptions;
import dev.accelbridge.bridge.BridgeServer;
import dev.accelbridge.bridge.hub.ConnectedPage;
import dev.accelbridge.bridge.protocol.PageHost;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.reports.render.Text;
import dev.accelbridge.run.AttachedPageLanes;
import dev.accelbridge.run.ModelSet;
import dev.accelbridge.run.PlanDefaults;
import dev.accelbridge.run.RunPlan;
import dev.accelbridge.run.ToolkitVersions;
import dev.accelbridge.tools.dashboard.Dashboard;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorCompletionService;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * {@code accelbridge serve}: bring your own browser. Prints the page URL; every browser that opens it joins
 * over WebSocket and runs the suites on the browser backends it offers; results go to the store.
 */
@Command(name = "serve", mixinStandardHelpOptions = true,
        description = "Starts the bridge and prints a URL. Any browser that opens it (a laptop with a real GPU, a phone) "
                + "joins and runs the suites; each joined browser is one run in the store.")
public final class ServeCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common = new CommonOptions();

    @Mixin
    BindArgs bind = new BindArgs();

    @Mixin
    WorkloadOptions workload = new WorkloadOptions();

    @Option(names = {"-b", "--backends"}, split = ",", converter = Converters.Backend.class,
            description = "Browser backends (default webgpu,webnn-gpu,webnn-cpu,webnn-npu,wasm).")
    List<BackendId> backends;

    @Mixin
    SamplingOptions sampling = new SamplingOptions();

    @Mixin
    LimitOptions limits = new LimitOptions();

    @Mixin
    DrillDownOptions drillDown = new DrillDownOptions();

    @Option(names = "--once", description = "Exit after the first joined browser finished its run (--pages 1).")
    boolean once;

    @Option(names = "--pages", paramLabel = "N", converter = Converters.Positive.class,
            description = "Exit after N joined browsers finished their runs (default: serve until stopped).")
    Integer pages;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** How long a joined page has to answer its capability probe before it is given a run. */
    static final Duration PROBE_TIMEOUT = Duration.ofSeconds(30);

    /**
     * A page becomes a run only once it has done work: it must answer a fresh capability probe. A connection that
     * joined and then stays silent (or a script that only says hello) leaves nothing in the store.
     *
     * @return why the page is not worth a run, or empty when it answered
     */
    static Optional<String> unresponsive(ConnectedPage page, Duration timeout) {
        try {
            page.reprobe(timeout).get(timeout.toMillis() + 5_000, java.util.concurrent.TimeUnit.MILLISECONDS);
            return Optional.empty();
        } catch (java.util.concurrent.ExecutionException e) {
            return Optional.of(String.valueOf(e.getCause().getMessage()));
        } catch (java.util.concurrent.TimeoutException e) {
            return Optional.of("no answer within " + timeout.toSeconds() + " s");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return Optional.of("interrupted");
        }
    }

    @Override
    public Integer call() throws Exception {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        List<BackendId> requested = backends == null ? PlanDefaults.BROWSER_BACKENDS : backends;
        RunPlan plan = RunPlan.builder().workload(workload::apply)
                .targets(t -> t.setBackends(requested).optDriver(DriverKind.MANUAL))
                .sampling(sampling::apply).limits(limits::apply).drillDown(drillDown::apply).build();
        ModelSet models = ModelSet.load(plan);
        Map<String, String> versions = ToolkitVersions.runtime();
        BlockingQueue<ConnectedPage> joined = new LinkedBlockingQueue<>();
        BridgeOptions.Builder ob = bind.options().jobTimeout(plan.limits().caseTimeout()).maxResultBytes(plan.limits().maxResultBytes());
        Path db = common.dbPath();
        BridgeOptions options = ob.build(); // refused (weak token, bad port) before the store is touched
        int stopAfter = once ? 1 : pages == null ? Integer.MAX_VALUE : pages;
        ExecutorService runs = Executors.newCachedThreadPool(r -> {
            Thread t = new Thread(r, "accelbridge-serve-page");
            t.setDaemon(true);
            return t;
        });
        try (AccelbridgeSession session = Accelbridge.create(SessionOptions.builder().optStore(db).optOrigin("serve").build());
             Dashboard dashboard = new Dashboard(session.store(), Path.of("accelbridge-out"), Duration.ofSeconds(1));
             BridgeServer server = BridgeServer.start(options, List.of(dashboard.routes()))) {
            server.onPageJoined(joined::add);
            out.println("Open this URL in any browser to join: " + server.pageUrl());
            out.println("Dashboard: " + server.url("/dashboard/"));
            server.remoteUrls("/").forEach(u -> out.println("From another machine: " + u));
            BindArgs.describeTls(options, out);
            out.flush();
            // every page that joins runs at once, on its own thread: its own run, its own lane, its own host
            ExecutorCompletionService<Boolean> finished = new ExecutorCompletionService<>(runs);
            int done = 0;      // pages whose run finished
            int inFlight = 0;  // pages being probed or run
            while (done < stopAfter) {
                for (Future<Boolean> f = finished.poll(); f != null; f = finished.poll()) {
                    inFlight--;
                    done += f.get() ? 1 : 0; // a page that did not answer its probe made no run and does not count
                }
                if (done >= stopAfter) {
                    break;
                }
                if (done + inFlight >= stopAfter) {
                    Future<Boolean> f = finished.take(); // enough pages at work: wait for one to end
                    inFlight--;
                    done += f.get() ? 1 : 0;
                    continue;
                }
                ConnectedPage page = joined.poll(200, TimeUnit.MILLISECONDS);
                if (page != null) {
                    inFlight++;
                    finished.submit(() -> servePage(page, plan, models, session, server, versions, out, err));
                }
            }
            return Main.OK;
        } finally {
            runs.shutdownNow();
        }
    }

    /**
     * Gives one joined page its run; false when the page did not answer its probe (no run was made).
     */
    private boolean servePage(ConnectedPage page, RunPlan plan, ModelSet models, AccelbridgeSession session, BridgeServer server,
                              Map<String, String> versions, PrintWriter out, PrintWriter err) {
        Optional<String> silent = unresponsive(page, PROBE_TIMEOUT);
        if (silent.isPresent()) {
            synchronized (err) {
                err.println(Text.terminal("joined but did not answer its probe, so no run was started: "
                        + page + " (" + silent.get() + ")"));
            }
            page.close("did not answer its probe");
            return false;
        }
        synchronized (err) {
            // the page's user agent is its own words: one line, no escape reaches the terminal
            err.println(Text.terminal("joined: " + page + " from "
                    + PageHost.device(page.probe(), page.remoteAddress()).hostname())
                    + (page.probe().secureContext() ? "" : " (not a secure context: WebGPU and WebNN are hidden there; use --tls)"));
        }
        SessionRun run;
        try (ProgressListener progress = new ProgressListener(err, false)) {
            run = session.run(RunRequest.builder().setPlan(plan).optModels(models).optListener(progress)
                    .optLanes(() -> new AttachedPageLanes(server, page, versions)).build());
        }
        synchronized (out) {
            out.print(ResultTable.render(run.results().stream().map(CaseResult::result).toList()));
            out.flush();
        }
        return true;
    }
}
