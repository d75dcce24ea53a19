package dev.accelbridge.tools.cli;

import dev.accelbridge.api.Accelbridge;
import dev.accelbridge.api.AccelbridgeSession;
import dev.accelbridge.api.RunRequest;
import dev.accelbridge.api.SessionOptions;
import dev.accelbridge.api.SessionRun;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.fallback.Chain;
import dev.accelbridge.fallback.Chains;
import dev.accelbridge.fallback.FallbackPolicy;
import dev.accelbridge.reports.ExitPolicy;
import dev.accelbridge.reports.history.Change;
import dev.accelbridge.reports.history.RegressionDetector;
import dev.accelbridge.reports.render.Cell;
import dev.accelbridge.reports.render.Matrix;
import dev.accelbridge.reports.render.MatrixBuilder;
import dev.accelbridge.reports.render.ReportWriter;
import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.reports.store.RunInfo;
import dev.accelbridge.run.ModelSet;
import dev.accelbridge.run.PlanDefaults;
import dev.accelbridge.run.PlanJson;
import dev.accelbridge.run.RunAccount;
import dev.accelbridge.run.RunPlan;
import dev.accelbridge.suites.ModelSize;
import dev.accelbridge.suites.SuiteOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code accelbridge run}: the matrix run. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs the suites (and your models) on every requested backend, checks each output against the "
                + "native CPU reference, writes every case to the store and the reports.",
                // the defaults in words, made by PlanDefaults.describe() (Main puts it here)
                "@defaults@"})
public final class RunCommand implements Callable<Integer> {


    @Mixin
    CommonOptions common = new CommonOptions();

    @Mixin
    WorkloadOptions workload = new WorkloadOptions();

    @Mixin
    TargetOptions targets = new TargetOptions();

    @Mixin
    SamplingOptions sampling = new SamplingOptions();

    @Mixin
    LimitOptions limits = new LimitOptions();

    @Mixin
    DrillDownOptions drillDown = new DrillDownOptions();

    @Option(names = "--regression-threshold", paramLabel = "FRACTION", converter = Converters.Fraction.class,
            description = "Smallest slowdown flagged as a regression, e.g. 0.1 or 10%% (default 10%%); it must also exceed the cell's run-to-run noise.")
    double regressionThreshold = 0.10;

    @Option(names = "--json", description = "Print the results as one JSON array on stdout (the table goes to stderr).")
    boolean json;

    @Option(names = "--out", paramLabel = "DIR", description = "Where the reports are written (default: accelbridge-out).")
    Path out = Path.of("accelbridge-out");

    @Option(names = "--no-report", description = "Do not write the reports at the end.")
    boolean noReport;

    @Option(names = "--quiet", description = "No progress lines and no time account (for CI logs): the table and the summary only.")
    boolean quiet;

    @Option(names = "--fail-on", paramLabel = "LIST", split = ",",
            description = "Exit 1 when any case is: failed, wrong-output, unavailable, unsupported, fell-back, or on a regression. Default: none.")
    List<String> failOn = new ArrayList<>();

    @Option(names = "--resume", arity = "0..1", paramLabel = "RUN_ID", fallbackValue = "",
            description = "Finish an interrupted run (the latest one, or RUN_ID) with the options it was started with.")
    String resume;

    @Option(names = "--plan", paramLabel = "FILE",
            description = "Run the plan in FILE (JSON, as the dashboard writes it and the store records it) instead of the plan options.")
    Path planFile;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    /** How the CLI's runs say they were started (the ledger's {@code origin}); only these can be resumed by the CLI. */
    static final String ORIGIN = "cli";

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        // Bad input is refused before the store is touched.
        exitPolicy();
        CommonOptions.checkOut(out);
        RunAccount account = Main.processOwned ? RunAccount.sinceJvmStart() : RunAccount.startingNow();
        RunPlan plan = resume != null ? null : planFile != null ? PlanFiles.read(planFile) : plan();
        ModelSet models = plan == null ? null : account.time(RunAccount.Part.MODELS, () -> ModelSet.load(plan));
        try (ProgressListener progress = new ProgressListener(err, quiet);
             AccelbridgeSession session = Accelbridge.create(SessionOptions.builder().optStore(common.dbPath()).optOutDir(out)
                     .optOrigin(ORIGIN).optListener(progress).build())) {
            RunRequest request;
            if (resume == null) {
                if (!quiet) {
                    err.println("each case runs " + plan.sampling().describe());
                }
                progress.sampling(plan.sampling().durations());
                request = RunRequest.builder().setPlan(plan).optModels(models).optAccount(account).build();
            } else {
                String runId = resumeId(session.store());
                RunPlan stored = resumedPlan(session.store(), runId);
                err.println("resuming run " + runId + " with the plan it stored");
                progress.sampling(stored.sampling().durations());
                request = RunRequest.builder().setPlan(stored).optResumeOf(runId).optAccount(account).build();
            }
            SessionRun run = session.run(request);
            progress.close();
            List<String> summary = new ArrayList<>();
            int code = account.time(RunAccount.Part.REPORTS, () -> report(session.store(), run, err, summary));
            account.finish();
            session.store().recordAccount(run.runId(), account.toJson().toString());
            if (!quiet) {
                err.print(account.render());
            }
            // last, under everything else: what a person looks for when the run ends
            summary.forEach(err::println);
            err.flush();
            return code;
        }
    }

    private String resumeId(MatrixStore matrix) {
        return resume.isEmpty() ? matrix.interruptedRuns().stream().reduce((a, b) -> b).map(RunInfo::runId)
                .orElseThrow(() -> new AccelbridgeException("No interrupted run in " + matrix.path(), "start a new run without --resume"))
                : resume;
    }

    /** The plan an interrupted CLI run stored (or, for a run stored before plans were data, its command line's). */
    private static RunPlan resumedPlan(MatrixStore matrix, String runId) {
        RunInfo info = matrix.run(runId).orElseThrow(() -> new AccelbridgeException("Run " + runId + " is not in " + matrix.path(),
                "see the runs with 'accelbridge report' or start a new run"));
        if (!ORIGIN.equals(info.origin())) {
            // a run a program or a JUnit test started is theirs to start again: its listener and label are theirs
            throw new AccelbridgeException("This run was not started by 'accelbridge run' (origin: " + info.origin()
                    + "), so it is not the CLI's to resume", "run its test or program again, or give --resume another RUN_ID");
        }
        return PlanJson.stored(info.planJson()).orElseGet(() -> PlanFiles.legacy(info.planJson()));
    }

    private int report(MatrixStore matrix, SessionRun run, PrintWriter err, List<String> summary) {
        List<RunResult> every = matrix.allResults(); // read once: the run's table and the matrix both need them
        List<RunResult> all = every.stream().filter(r -> run.runId().equals(r.runId())).toList();
        PrintWriter stdout = spec.commandLine().getOut();
        String table = ResultTable.render(all, Terminal.WIDTH, !json && Terminal.colour());
        if (json) {
            err.print(table);
            stdout.println(RunJson.array(all));
        } else {
            stdout.print(table);
        }
        stdout.flush(); // before anything on stderr, so nothing lands inside the table
        Map<Status, Long> byStatus = new java.util.EnumMap<>(Status.class);
        all.forEach(r -> byStatus.merge(r.status(), 1L, Long::sum));
        String counts = String.join(", ", byStatus.entrySet().stream().map(e -> e.getValue() + " " + e.getKey()).toList());
        summary.add(String.format(Locale.ROOT, "run %s: %d cases in %.1f s (%s), stored in %s", run.runId(), all.size(),
                run.wallMs() / 1000, counts.isEmpty() ? "none" : counts, matrix.path().toAbsolutePath()));
        Matrix matrix2 = MatrixBuilder.build(matrix, every, Optional.of(run.runId()),
                RegressionDetector.defaults().withThreshold(regressionThreshold));
        var spreads = matrix2.positionSpreads();
        if (!spreads.isEmpty()) {
            err.printf(Locale.ROOT, "%d figure(s) depend on where they fell in the run (the same work measured apart, up to ×%.2f): "
                    + "see the report's \"Figures that depend on where they fell\"%n", spreads.size(), spreads.get(0).ratio());
        }
        if (!noReport) {
            List<Path> written = ReportWriter.write(matrix2, out);
            Path html = written.stream().filter(p -> p.getFileName().toString().endsWith(".html")).findFirst().orElse(written.get(0));
            summary.add("report: " + html.toAbsolutePath() + " (beside it: " + String.join(", ", written.stream().filter(p -> !p.equals(html))
                    .map(p -> p.getFileName().toString()).toList()) + ")");
        }
        List<Change> changes = matrix2.cells().stream().map(Cell::change).filter(java.util.Objects::nonNull).toList();
        ExitPolicy.Decision d = exitPolicy().decide(all, changes);
        if (d.code() != 0) {
            summary.add("failing (--fail-on " + String.join(",", failOn) + "): " + String.join("; ", d.reasons()));
            return Main.POLICY_FAILED;
        }
        return Main.OK;
    }

    private ExitPolicy exitPolicy() {
        return ExitPolicy.parse(failOn.isEmpty() ? "none" : String.join(",", failOn));
    }

    /** The plan of the options: each group's mixin puts itself on the group's builder, which refuses what cannot run. */
    RunPlan plan() {
        return RunPlan.builder().workload(workload::apply).targets(targets::apply).sampling(sampling::apply).limits(limits::apply)
                .drillDown(drillDown::apply).build();
    }
}
