package dev.accelbridge.bridge.cli;

import dev.accelbridge.bridge.api.Accelbridge;
import dev.accelbridge.bridge.api.AccelbridgeSession;
import dev.accelbridge.bridge.api.RunRequest;
import dev.accelbridge.bridge.api.SessionOptions;
import dev.accelbridge.bridge.api.SessionRun;
import dev.accelbridge.bridge.run.PlanJson;
import dev.accelbridge.bridge.run.ModelSet;
import dev.accelbridge.bridge.run.RunAccount;
import dev.accelbridge.bridge.run.PlanDefaults;
import dev.accelbridge.bridge.run.RunPlan;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.fallback.Chain;
import dev.accelbridge.fallback.Chains;
import dev.accelbridge.fallback.FallbackPolicy;
import dev.accelbridge.reports.ExitPolicy;
import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.reports.store.RunInfo;
import dev.accelbridge.reports.history.Change;
import dev.accelbridge.reports.history.RegressionDetector;
import dev.accelbridge.reports.render.Cell;
import dev.accelbridge.reports.render.Matrix;
import dev.accelbridge.reports.render.MatrixBuilder;
import dev.accelbridge.reports.render.ReportWriter;
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
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code accelbridge run}: the matrix run. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs the suites (and your models) on every requested backend, checks each output against the "
                + "native CPU reference, writes every case to the store and the reports.",
                "Default: text, vision and audio on webgpu, webnn-gpu, webnn-cpu, webnn-npu and wasm in headless "
                        + "Chromium (Debian's, and the WebNN-capable headless shell when installed) plus native cpu."})
public final class RunCommand implements Callable<Integer> {


    @Mixin
    CommonOptions common = new CommonOptions();

    @Option(names = "--native", description = "Native backends only (default backends then: cpu).")
    boolean nativeOnly;

    @Option(names = {"-b", "--backends"}, paramLabel = "LIST", split = ",", converter = Converters.Backend.class,
            description = "Backends to request: webgpu, webnn-gpu, webnn-cpu, webnn-npu, wasm, cuda, rocm, coreml, openvino, cpu.")
    List<BackendId> backends;

    @Option(names = {"-s", "--suites"}, paramLabel = "LIST", split = ",", converter = Converters.Suite.class,
            description = "Built-in suites: text, vision, audio (default: all three; none when only --model is given).")
    List<ModelFamily> suites;

    @Option(names = {"-m", "--model"}, paramLabel = "PATH",
            description = "Your own model: a folder (Optimum export or ONNX test-data layout) or an .onnx file. Repeatable.")
    List<Path> models = new ArrayList<>();

    @Option(names = "--family", paramLabel = "FAMILY", converter = Converters.Family.class,
            description = "Family of the --model models (text, vision, audio, other); inferred from the inputs when absent.")
    ModelFamily family;

    @Option(names = "--size", paramLabel = "SIZE", converter = Converters.Size.class,
            description = "Suite model size: small (default, a few tens of MFLOPs) or large (realistic).")
    ModelSize size = ModelSize.SMALL;

    @Option(names = "--seed", description = "Seed of the generated weights and inputs (default ${DEFAULT-VALUE}).")
    long seed = SuiteOptions.DEFAULT_SEED;

    @Option(names = "--browser", paramLabel = "LIST", split = ",", converter = Converters.BrowserAt.class,
            description = "Browsers: chromium, chromium-shell, chrome, firefox, edge (default: chromium, and chromium-shell and firefox when installed). "
                    + "NAME@MAJOR asks for a major version: chromium-shell@141 is fetched from the npm registry at first use; another browser runs "
                    + "only at the version installed.")
    List<dev.accelbridge.core.BrowserSpec> browsers;

    @Option(names = "--ort-web", paramLabel = "LIST", split = ",", converter = Converters.OrtWebVersion.class,
            description = "onnxruntime-web versions to run every browser case under, e.g. 1.22.0,1.30.0 (default: the pinned one); each is "
                    + "fetched from the npm registry at first use, its integrity checked against the registry's.")
    List<String> ortWeb;

    @Option(names = "--ort", paramLabel = "LIST", split = ",", converter = Converters.OrtVersion.class,
            description = "ONNX Runtime versions to run every native case under, e.g. 1.22.0,1.29.0 (default: the one this build loads); "
                    + "each other version runs in a runner process of its own, its jar fetched from Maven Central at first use.")
    List<String> ort;

    @Option(names = "--driver", converter = Converters.Driver.class,
            description = "How browsers are launched: playwright (default), selenium, process.")
    DriverKind driver = DriverKind.PLAYWRIGHT;

    @Mixin
    RemoteArgs remote = new RemoteArgs();

    @Option(names = "--parallel", paramLabel = "N", converter = Converters.Positive.class,
            description = "Browser lanes at once, each with its own browser and page (default: cores / 4, at least 1). "
                    + "Lanes share the CPU: use 1 for timings you compare.")
    Integer parallel;

    @Option(names = "--retries", paramLabel = "N", converter = Converters.NonNegative.class,
            description = "Re-run a FAILED case up to N times on a fresh page (a fresh browser after a crash); one that then "
                    + "passes is reported flaky (default 0).")
    int retries;

    @Option(names = "--max-result-mb", paramLabel = "MB", converter = Converters.Positive.class,
            description = "The most a browser case's outputs may total when the model does not declare their sizes "
                    + "(default 2048); outputs cross from the page in chunks, so no frame limit applies.")
    Integer maxResultMb;

    @Option(names = "--headed", description = "Show the browser windows (needs a display).")
    boolean headed;

    @picocli.CommandLine.Mixin
    SamplingOptions sampling = new SamplingOptions();

    @Option(names = "--timeout", paramLabel = "SECONDS", converter = Converters.Seconds.class,
            description = "Cap for one case, in seconds (default 3600). Within it session creation has --load-timeout, the first "
                    + "inference 300 s, and the warm-ups and timed runs a deadline derived from the first inference.")
    Duration timeout = dev.accelbridge.core.TimeBudget.CASE_CAP;

    @Option(names = "--load-timeout", paramLabel = "SECONDS", converter = Converters.Seconds.class,
            description = "Limit for creating a session alone (default: 30 s + 1 s per 10 MB of model), so a load that never returns costs that, not --timeout.")
    Duration loadTimeout;

    @Option(names = "--regression-threshold", paramLabel = "FRACTION", converter = Converters.Fraction.class,
            description = "Smallest slowdown flagged as a regression, e.g. 0.1 or 10%% (default 10%%); it must also exceed the cell's run-to-run noise.")
    double regressionThreshold = 0.10;

    @Mixin
    FeedArgs feedArgs = new FeedArgs();

    @Option(names = "--precision", paramLabel = "LIST", split = ",", converter = Converters.PrecisionId.class,
            description = "Precisions to run every model at: fp32, fp16, int8 (default fp32). fp16 and int8 variants are derived "
                    + "from fp32 models and judged against the fp32 native CPU reference.")
    List<dev.accelbridge.core.Precision> precisions = List.of(dev.accelbridge.core.Precision.FP32);

    @Option(names = "--batch-sizes", paramLabel = "LIST", split = ",", converter = Converters.BatchSize.class,
            description = "Batch sizes to run every model at (default: inputs as shipped or given, judged against their shipped "
                    + "expected outputs; the suites at 1); a model with a fixed batch runs at its own.")
    List<Integer> batchSizes;

    @Option(names = "--threads", paramLabel = "N", converter = Converters.Positive.class,
            description = "Intra-op threads on both sides, native ONNX Runtime and onnxruntime-web's wasm (default: the cores a browser may use here).")
    Integer threads;

    @Option(names = "--chain", paramLabel = "LIST",
            description = "A fallback chain, requested backend first, e.g. webgpu,webnn-gpu,wasm. Repeatable.")
    List<String> chains = new ArrayList<>();

    @Option(names = "--chain-file", paramLabel = "PATH", description = "Fallback chains, one per line: requested=hop,hop,...")
    Path chainFile;

    @Option(names = "--fallback-on-wrong-output", description = "Also move to the next hop when the output is outside tolerance.")
    boolean fallbackOnWrongOutput;

    @Option(names = "--no-bisect", description = "Do not bisect WRONG_OUTPUT cases to their first diverging node (on by default).")
    boolean noBisect;

    @Option(names = "--profile", description = "Profile every case per op (on as many extra iterations as --iterations, after the timed ones).")
    boolean profile;

    @Option(names = "--recreate", paramLabel = "N", converter = Converters.Positive.class,
            description = "Create, run and release each case's session N more times and record memory after each (a leak check).")
    Integer recreate;

    @Option(names = "--shard", paramLabel = "I/N", converter = Converters.ShardArg.class,
            description = "Run only the I-th of N parts of the models (deterministic; merge the N exports with 'accelbridge merge').")
    dev.accelbridge.bridge.run.Shard shard;

    @Option(names = "--json", description = "Print the results as one JSON array on stdout (the table goes to stderr).")
    boolean json;

    @Option(names = "--out", paramLabel = "DIR", description = "Where the reports are written (default: accelbridge-out).")
    Path out = Path.of("accelbridge-out");

    @Option(names = "--no-report", description = "Do not write the reports at the end.")
    boolean noReport;

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
        try (ProgressListener progress = new ProgressListener(err);
             AccelbridgeSession session = Accelbridge.create(SessionOptions.builder().optStore(common.dbPath()).optOutDir(out)
                     .optOrigin(ORIGIN).optListener(progress).build())) {
            RunRequest request;
            if (resume == null) {
                err.println("each case runs " + plan.durations().describe(plan.warmups(), plan.iterations()));
                request = RunRequest.builder().setPlan(plan).optModels(models).optAccount(account).build();
            } else {
                String runId = resumeId(session.store());
                RunPlan stored = resumedPlan(session.store(), runId);
                err.println("resuming run " + runId + " with the plan it stored");
                request = RunRequest.builder().setPlan(stored).optResumeOf(runId).optAccount(account).build();
            }
            SessionRun run = session.run(request);
            progress.close();
            int code = account.time(RunAccount.Part.REPORTS, () -> report(session.store(), run, err));
            account.finish();
            session.store().recordAccount(run.runId(), account.toJson().toString());
            err.print(account.render());
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

    private int report(MatrixStore matrix, SessionRun run, PrintWriter err) {
        List<RunResult> every = matrix.allResults(); // read once: the run's table and the matrix both need them
        List<RunResult> all = every.stream().filter(r -> run.runId().equals(r.runId())).toList();
        PrintWriter stdout = spec.commandLine().getOut();
        if (json) {
            err.print(ResultTable.render(all));
            stdout.println(RunJson.array(all));
        } else {
            stdout.print(ResultTable.render(all));
        }
        err.printf(Locale.ROOT, "run %s: %d cases in %.1f s, stored in %s%n", run.runId(), all.size(),
                run.wallMs() / 1000, matrix.path().toAbsolutePath());
        Matrix matrix2 = MatrixBuilder.build(matrix, every, Optional.of(run.runId()),
                RegressionDetector.defaults().withThreshold(regressionThreshold));
        var spreads = matrix2.positionSpreads();
        if (!spreads.isEmpty()) {
            err.printf(Locale.ROOT, "%d figure(s) depend on where they fell in the run (the same work measured apart, up to ×%.2f): "
                    + "see the report's \"Figures that depend on where they fell\"%n", spreads.size(), spreads.get(0).ratio());
        }
        if (!noReport) {
            List<Path> written = ReportWriter.write(matrix2, out);
            err.println("reports: " + String.join(", ", written.stream().map(p -> p.toAbsolutePath().toString()).toList()));
        }
        List<Change> changes = matrix2.cells().stream().map(Cell::change).filter(java.util.Objects::nonNull).toList();
        ExitPolicy.Decision d = exitPolicy().decide(all, changes);
        if (d.code() != 0) {
            err.println("failing (--fail-on " + String.join(",", failOn) + "): " + String.join("; ", d.reasons()));
            return Main.POLICY_FAILED;
        }
        return Main.OK;
    }

    private ExitPolicy exitPolicy() {
        return ExitPolicy.parse(failOn.isEmpty() ? "none" : String.join(",", failOn));
    }

    /** Maps the options onto {@link RunPlan#builder()}, which refuses a plan that cannot run. */
    RunPlan plan() {
        List<BackendId> requested = backends != null && !backends.isEmpty() ? backends : PlanDefaults.backends(nativeOnly);
        if (nativeOnly && requested.stream().anyMatch(BackendId::isBrowser)) {
            throw new AccelbridgeException("--native was given with browser backends " + requested.stream()
                    .filter(BackendId::isBrowser).map(BackendId::id).toList(), "drop --native or the browser backends");
        }
        Chains configured = Chains.defaults();
        if (chainFile != null) {
            if (!Files.isRegularFile(chainFile)) {
                throw new AccelbridgeException("Chain file " + chainFile + " does not exist", "give an existing file to --chain-file");
            }
            try {
                configured = configured.with(List.copyOf(Chains.parseConfig(Files.readString(chainFile)).asMap().values()));
            } catch (java.io.IOException e) {
                throw new AccelbridgeException("Cannot read chain file " + chainFile + ": " + e.getMessage(), null, e);
            }
        }
        for (String c : chains) {
            configured = configured.with(Chains.parse(c));
        }
        List<dev.accelbridge.core.BrowserSpec> browserSpecs = browsers == null || browsers.isEmpty() ? PlanDefaults.browsers(remote.remote()) : browsers;
        return remote.apply(sampling.apply(RunPlan.builder()))
                .setBackends(requested)
                .optSuites(suites == null ? null : suites)
                .optUserModels(models)
                .optUserFamily(family)
                .optLargeModels(size == ModelSize.LARGE)
                .optSeed(seed)
                .optChains(configured)
                .optPolicy(fallbackOnWrongOutput ? FallbackPolicy.ON_FAILURE_AND_WRONG_OUTPUT : FallbackPolicy.ON_FAILURE)
                .optBrowserSpecs(browserSpecs)
                .optRuntimes(new dev.accelbridge.bridge.run.Runtimes(ortWeb, ort))
                .optDriver(driver)
                .optParallel(parallel == null ? PlanDefaults.parallel() : parallel)
                .optRetries(retries)
                .optMaxResultBytes(maxResultMb == null ? dev.accelbridge.browser.bridge.OutputBudget.DEFAULT_CAP : (long) maxResultMb << 20)
                .optHeadless(!headed)
                .optCaseTimeout(timeout)
                .optThreads(threads)
                .optPrecisions(precisions)
                .optBatchSizes(batchSizes)
                .optFeed(feedArgs.feed())
                .optLoadTimeout(loadTimeout)
                .optDrillDown(!noBisect, profile ? (sampling.iterations == null ? 10 : sampling.iterations) : 0, recreate == null ? 0 : recreate)
                .optShard(shard)
                .build();
    }
}
