package dev.accelbridge.tools.cli;

import dev.accelbridge.api.Accelbridge;
import dev.accelbridge.api.AccelbridgeSession;
import dev.accelbridge.api.ObserveOptions;
import dev.accelbridge.api.ObservedRun;
import dev.accelbridge.api.SessionOptions;
import dev.accelbridge.browser.observe.AppStep;
import dev.accelbridge.browser.observe.PageObserver;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.BrowserSpec;
import dev.accelbridge.reports.ExitPolicy;
import dev.accelbridge.reports.history.RegressionDetector;
import dev.accelbridge.reports.render.ReportWriter;
import dev.accelbridge.run.Targets;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code accelbridge observe URL}: the user's own app, observed and each of its sessions judged against native. */
@Command(name = "observe", mixinStandardHelpOptions = true,
        description = "Opens your app's page with an observer installed before its scripts (and, in Chromium, its workers'), "
                + "does the steps you give, waits until the app is done, and judges every onnxruntime-web session it made "
                + "(imported, through transformers.js or bundled; on the page, in a worker or a frame) against native CPU on "
                + "the inputs it fed, every run kept: one row each in the store and the reports, in the scenario 'observed in "
                + "an app'.")
public final class ObserveCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common = new CommonOptions();

    @Parameters(index = "0", paramLabel = "URL", description = "The app's page: your dev server (http://localhost:5173/), a "
            + "deployed URL, or a file.")
    String url;

    @Option(names = "--step", paramLabel = "STEP", description = "Something to do once the page has loaded, in order "
            + "(repeatable): 'click SELECTOR' or 'fill SELECTOR=TEXT' (Playwright selectors).")
    List<String> steps = new ArrayList<>();

    @Option(names = "--until", paramLabel = "SELECTOR", description = "The app is done when this element is in the page "
            + "(then quiet for the idle time).")
    String until;

    @Option(names = "--idle", paramLabel = "SECONDS", description = "Done once no session was made or run for this long "
            + "(default 3).")
    double idle = 3;

    @Option(names = "--timeout", paramLabel = "SECONDS", description = "The most the observation takes, the page's loading "
            + "included (default 120).")
    double timeout = 120;

    /**
     * {@code run}'s target options: the app is observed in the first Chromium of {@code --browser} (chromium when none is
     * listed) with {@code --webgpu-adapter}; {@code --backends} (or {@code --native}) replays each session on them.
     */
    @Mixin
    TargetOptions targets = new TargetOptions();

    @Option(names = "--out", paramLabel = "DIR", description = "Where the reports are written (default: accelbridge-out).")
    Path out = Path.of("accelbridge-out");

    @Option(names = "--no-report", description = "Do not write the reports.")
    boolean noReport;

    @Option(names = "--keep", paramLabel = "SIZE", converter = Converters.ByteSize.class,
            description = "The most bytes kept on disk from the visit to judge its sessions: models, their external data, "
                    + "tensors over 1 MiB (default 4GiB; e.g. 512MiB); what is past it is not kept, and its row says so.")
    long keep = PageObserver.DEFAULT_KEEP;

    @Option(names = "--json", description = "Print the rows as JSON (as run --json does) instead of the table.")
    boolean json;

    @Option(names = "--fail-on", paramLabel = "LIST", split = ",",
            description = "Exit 1 when any session is: failed, wrong-output, unavailable; partial: judged on fewer runs than it "
                    + "made; under any of them, also when a worker or frame was seen and not observed. Default: none.")
    List<String> failOn = new ArrayList<>();

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        ObserveOptions options = options();
        ExitPolicy policy = ExitPolicy.parse(failOn.isEmpty() ? "none" : String.join(",", failOn));
        PrintWriter err = spec.commandLine().getErr();
        try (AccelbridgeSession session = Accelbridge.create(SessionOptions.builder().optStore(common.dbPath()).optOutDir(out)
                .optOrigin("accelbridge observe").build())) {
            ObservedRun run = session.observe(options);
            String table = ResultTable.render(run.allRows(), Terminal.WIDTH, !json && Terminal.colour());
            if (json) {
                err.print(table); // as run --json: the rows on stdout, the table on stderr
                spec.commandLine().getOut().println(RunJson.array(run.allRows()));
            } else {
                spec.commandLine().getOut().print(table);
            }
            spec.commandLine().getOut().flush();
            run.notes().forEach(n -> err.println("  page: " + n));
            run.unseen().forEach(u -> err.println("  unseen: " + u.describe()));
            run.partial().forEach(p -> err.println("  judged in part: " + p));
            if (!run.replays().isEmpty()) {
                err.printf("replayed: %d case(s), each row's input set 'replay of' its session's%n", run.replays().size());
            }
            err.printf("run %s: %d session(s) of %s%s, stored in %s%n", run.runId(), run.sessions().size(), run.url(),
                    run.timedOut() ? " (ended at the timeout)" : "", session.storePath().toAbsolutePath());
            if (!noReport) {
                List<Path> files = ReportWriter.write(session.store(), Optional.of(run.runId()), out, RegressionDetector.defaults()).files();
                err.println("report: " + files.get(0).toAbsolutePath());
            }
            ExitPolicy.Decision d = policy.decide(run.allRows(), List.of(), run.unseen().size(), run.partial().size());
            if (d.code() != 0) {
                err.println("failing (--fail-on " + String.join(",", failOn) + "): " + String.join("; ", d.reasons()));
                return Main.POLICY_FAILED;
            }
            return Main.OK;
        }
    }

    /** The options the command line gives, or a bad-input error naming the one that is wrong. */
    ObserveOptions options() {
        URI uri;
        try {
            uri = url.contains("://") ? URI.create(url) : Path.of(url).toAbsolutePath().toUri();
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "'" + url + "' is not a URL: give http://host:port/path or a file");
        }
        if (!(idle > 0) || !(timeout > idle) || timeout > 3600) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--idle must be above 0 and below --timeout, which is at most "
                    + "3600 seconds (got --idle " + idle + ", --timeout " + timeout + ")");
        }
        BrowserKind observer = targets.browsers == null ? BrowserKind.CHROMIUM : targets.browsers.stream().map(BrowserSpec::kind)
                .filter(BrowserKind::chromium).findFirst().orElse(BrowserKind.CHROMIUM);
        ObserveOptions.Builder b = ObserveOptions.builder(uri).optUntil(until).optBrowser(observer).optAdapter(targets.webGpuAdapter)
                .optIdle(Duration.ofMillis((long) (idle * 1000))).optTimeout(Duration.ofMillis((long) (timeout * 1000))).optKeep(keep);
        for (String s : steps) {
            b.addStep(step(s));
        }
        try {
            if (targets.backends != null && !targets.backends.isEmpty() || targets.nativeOnly) {
                b.optReplay(targets.apply(Targets.builder()).build());
            }
            return b.build();
        } catch (AccelbridgeException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), e.oneLine());
        }
    }

    private AppStep step(String s) {
        String t = s.strip();
        if (t.startsWith("click ") && t.length() > 6) {
            return new AppStep.Click(t.substring(6).strip());
        }
        int eq = t.indexOf('=');
        if (t.startsWith("fill ") && eq > 5) {
            return new AppStep.Fill(t.substring(5, eq).strip(), t.substring(eq + 1));
        }
        throw new CommandLine.ParameterException(spec.commandLine(), "--step '" + s + "' is not a step: give 'click SELECTOR' or "
                + "'fill SELECTOR=TEXT'");
    }
}
