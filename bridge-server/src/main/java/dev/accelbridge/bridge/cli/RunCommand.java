package dev.accelbridge.bridge.cli;

import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.bridge.run.BridgeBrowserLanes;
import dev.accelbridge.bridge.run.ModelSet;
import dev.accelbridge.bridge.run.NativeProviders;
import dev.accelbridge.bridge.run.RunOrchestrator;
import dev.accelbridge.bridge.run.RunPlan;
import dev.accelbridge.bridge.run.RunSummary;
import dev.accelbridge.bridge.run.ToolkitVersions;
import dev.accelbridge.browser.launch.BrowserDiscovery;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.fallback.Chain;
import dev.accelbridge.fallback.Chains;
import dev.accelbridge.fallback.FallbackPolicy;
import dev.accelbridge.nativerunner.HostDetector;
import dev.accelbridge.reports.ExitPolicy;
import dev.accelbridge.reports.store.MatrixStore;
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
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.Callable;

/** {@code accelbridge run}: the matrix run. */
@Command(name = "run", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Runs the suites (and your models) on every requested backend, checks each output against the "
                + "native CPU reference, writes every case to the store and the reports.",
                "Default: text, vision and audio on webgpu, webnn-gpu, webnn-cpu, webnn-npu and wasm in headless "
                        + "Chromium (Debian's, and the WebNN-capable headless shell when installed) plus native cpu."})
public final class RunCommand implements Callable<Integer> {

    static final List<BackendId> DEFAULT_BROWSER_BACKENDS = RunPlan.DEFAULT_BROWSER_BACKENDS;

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

    @Option(names = "--browser", paramLabel = "LIST", split = ",", converter = Converters.Browser.class,
            description = "Browsers: chromium, chromium-shell, chrome, firefox, edge (default: chromium, and chromium-shell and firefox when installed).")
    List<BrowserKind> browsers;

    @Option(names = "--driver", converter = Converters.Driver.class,
            description = "How browsers are launched: playwright (default), selenium, process.")
    DriverKind driver = DriverKind.PLAYWRIGHT;

    @Option(names = "--grid", paramLabel = "URL", description = "Run browsers on a Selenium Grid (RemoteWebDriver).")
    URI grid;

    @Option(names = "--bridge-host", paramLabel = "ADDR",
            description = "Address the bridge binds for the browsers it launches (default 127.0.0.1; the advertised host with --advertise). "
                    + "Off the default, every request needs a token made for the run.")
    String bridgeHost;

    @Option(names = "--advertise", paramLabel = "URL",
            description = "URL launched browsers reach the bridge at, e.g. http://10.0.0.5:8765 for a Grid node on another machine "
                    + "(the bridge binds that host unless --bridge-host says otherwise).")
    URI advertise;

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

    @Option(names = "--warmups", converter = Converters.NonNegative.class, description = "Warm-up iterations per case (default 3).")
    int warmups = 3;

    @Option(names = {"-n", "--iterations"}, converter = Converters.Positive.class, description = "Timed iterations per case (default 10).")
    int iterations = 10;

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

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() throws Exception {
        PrintWriter err = spec.commandLine().getErr();
        Path db = common.dbPath();
        if (resume == null) {
            // Bad input is refused before the store is touched.
            exitPolicy();
            CommonOptions.checkOut(out);
            RunPlan plan = plan();
            ModelSet models = ModelSet.load(plan);
            try (MatrixStore matrix = MatrixStore.openForRun(db)) {
                return execute(matrix, plan, models, null, err);
            }
        }
        try (MatrixStore matrix = MatrixStore.openForRun(db)) {
            String resumeOf = resume.isEmpty() ? matrix.interruptedRuns().stream().reduce((a, b) -> b)
                    .map(r -> r.runId()).orElseThrow(() -> new AccelbridgeException("No interrupted run in " + db,
                            "start a new run without --resume")) : resume;
            String planJson = matrix.run(resumeOf).map(r -> r.planJson()).orElseThrow(() -> new AccelbridgeException(
                    "Run " + resumeOf + " is not in " + db, "see the runs with 'accelbridge report' or start a new run"));
            RunCommand effective = fromPlan(planJson);
            effective.common = common;
            effective.json = json;
            err.println("resuming run " + resumeOf + " with: " + String.join(" ", argsOf(planJson)));
            RunPlan plan = effective.plan();
            return effective.execute(matrix, plan, ModelSet.load(plan), resumeOf, err);
        }
    }

    private int execute(MatrixStore matrix, RunPlan plan, ModelSet models, String resumeOf, PrintWriter err) {
        HostInfo host = HostDetector.detect();
        Map<String, String> versions = ToolkitVersions.runtime();
        try (NativeProviders natives = NativeProviders.load(); ProgressListener progress = new ProgressListener(err)) {
            RunOrchestrator orchestrator = new RunOrchestrator(matrix, host, natives,
                    () -> new BridgeBrowserLanes(plan, versions), versions, progress).spillTo(out);
            RunSummary summary = orchestrator.run(plan, models, planJson(), resumeOf);
            progress.close();
            List<RunResult> all = matrix.results(summary.runId());
            PrintWriter stdout = spec.commandLine().getOut();
            if (json) {
                err.print(ResultTable.render(all));
                stdout.println(RunJson.array(all));
            } else {
                stdout.print(ResultTable.render(all));
            }
            err.printf(Locale.ROOT, "run %s: %d cases in %.1f s, stored in %s%n", summary.runId(), all.size(),
                    summary.wallMs() / 1000, matrix.path().toAbsolutePath());
            Matrix matrix2 = MatrixBuilder.build(matrix, Optional.of(summary.runId()),
                    RegressionDetector.defaults().withThreshold(regressionThreshold));
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
    }

    private ExitPolicy exitPolicy() {
        return ExitPolicy.parse(failOn.isEmpty() ? "none" : String.join(",", failOn));
    }

    /** Maps the options onto {@link RunPlan#builder()}, which refuses a plan that cannot run. */
    RunPlan plan() {
        List<BackendId> requested;
        if (backends != null && !backends.isEmpty()) {
            requested = backends;
        } else if (nativeOnly) {
            requested = List.of(BackendId.CPU);
        } else {
            requested = new ArrayList<>(DEFAULT_BROWSER_BACKENDS);
            requested.add(BackendId.CPU);
        }
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
        List<BrowserKind> browserKinds = browsers;
        if (browserKinds == null || browserKinds.isEmpty()) {
            browserKinds = new ArrayList<>(List.of(BrowserKind.CHROMIUM, BrowserKind.CHROMIUM_SHELL));
            if (BrowserDiscovery.find(BrowserKind.FIREFOX).isPresent()) {
                browserKinds.add(BrowserKind.FIREFOX);
            }
        }
        return RunPlan.builder()
                .setBackends(requested)
                .optSuites(suites == null ? null : suites)
                .optUserModels(models)
                .optUserFamily(family)
                .optLargeModels(size == ModelSize.LARGE)
                .optSeed(seed)
                .optChains(configured)
                .optPolicy(fallbackOnWrongOutput ? FallbackPolicy.ON_FAILURE_AND_WRONG_OUTPUT : FallbackPolicy.ON_FAILURE)
                .optBrowsers(browserKinds)
                .optDriver(driver)
                .optGrid(grid)
                .optBridgeHost(bridgeHost)
                .optAdvertise(advertise)
                .optParallel(parallel == null ? RunPlan.defaultParallel() : parallel)
                .optRetries(retries)
                .optMaxResultBytes(maxResultMb == null ? dev.accelbridge.bridge.server.OutputBudget.DEFAULT_CAP : (long) maxResultMb << 20)
                .optHeadless(!headed)
                .optWarmups(warmups)
                .optIterations(iterations)
                .optCaseTimeout(timeout)
                .optThreads(threads)
                .optPrecisions(precisions)
                .optBatchSizes(batchSizes)
                .optFeed(feedArgs.feed())
                .optLoadTimeout(loadTimeout)
                .optDrillDown(!noBisect, profile ? iterations : 0, recreate == null ? 0 : recreate)
                .optShard(shard)
                .build();
    }

    /**
     * Checks a run's arguments as {@code accelbridge run} would (flags, values, the plan), touching nothing: what the
     * dashboard does before it starts a run from its form.
     *
     * @throws CommandLine.ParameterException or {@link AccelbridgeException} with the CLI's own message
     */
    static void checkArgs(List<String> args) {
        for (String a : args) {
            if (a.equals("--db") || a.startsWith("--db=") || a.equals("--out") || a.startsWith("--out=") || a.startsWith("--resume")) {
                throw new AccelbridgeException("The dashboard sets " + a + " itself", "leave " + a + " out of the run's arguments");
            }
        }
        RunCommand c = new RunCommand();
        CommandLine cl = new CommandLine(c);
        cl.parseArgs(args.toArray(String[]::new));
        c.spec = cl.getCommandSpec();
        c.exitPolicy();
        c.plan();
    }

    private String planJson() {
        try {
            Map<String, Object> m = new LinkedHashMap<>();
            // The arguments of this subcommand only (picocli keeps the whole command line, "run" included).
            List<String> args = new ArrayList<>(spec.commandLine().getParseResult().originalArgs());
            int at = args.indexOf(spec.name());
            m.put("args", args.subList(at + 1, args.size()).stream().filter(a -> !a.startsWith("--resume")).toList());
            m.putAll(plan().describe());
            return new ObjectMapper().writeValueAsString(m);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    private static List<String> argsOf(String planJson) {
        try {
            PlanArgs p = new ObjectMapper().readValue(planJson, PlanArgs.class);
            if (p.args == null) {
                // a run the Java API or a JUnit test started has a plan but no command line to start it again with
                throw new AccelbridgeException("This run was not started by 'accelbridge run'" + (p.origin == null ? "" : " (origin: "
                        + p.origin + ")") + ", so it has no arguments to resume with", "run its test or program again, or give --resume another RUN_ID");
            }
            return Arrays.asList(p.args);
        } catch (java.io.IOException e) {
            throw new AccelbridgeException("The stored plan of this run cannot be read: " + e.getMessage(),
                    "start a new run without --resume", e);
        }
    }

    @com.fasterxml.jackson.annotation.JsonIgnoreProperties(ignoreUnknown = true)
    static final class PlanArgs {
        public String[] args;
        public String origin;
    }

    private RunCommand fromPlan(String planJson) {
        RunCommand c = new RunCommand();
        CommandLine cl = new CommandLine(c);
        cl.parseArgs(argsOf(planJson).toArray(String[]::new));
        c.spec = cl.getCommandSpec();
        return c;
    }
}
