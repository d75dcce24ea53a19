package dev.accelbridge.tools.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.api.Accelbridge;
import dev.accelbridge.api.AccelbridgeSession;
import dev.accelbridge.api.SessionOptions;
import dev.accelbridge.bisect.VersionBisector;
import dev.accelbridge.bisect.VersionRange;
import dev.accelbridge.bisect.VersionRepros;
import dev.accelbridge.run.ModelSet;
import dev.accelbridge.run.RunPlan;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.SampleStats;
import dev.accelbridge.core.VersionAxis;
import dev.accelbridge.fallback.Chains;
import dev.accelbridge.reports.store.ResultJson;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.function.Supplier;

/**
 * {@code accelbridge bisect-versions}: which upgrade broke my model. Maps its options onto a {@link VersionBisector} and
 * prints what it found; the bisection, the runs and the repro folder are the bisector's.
 */
@Command(name = "bisect-versions", mixinStandardHelpOptions = true,
        description = {"Find the version of onnxruntime-web (--ort-web GOOD..BAD), of the headless shell's Chromium (--browser "
                + "chromium-shell@GOOD..BAD) or of ONNX Runtime natively (--ort GOOD..BAD) where a model's verdict changes: lists "
                + "the published versions between the two, runs the model at both ends to confirm the change, then binary-searches "
                + "to the last good and first bad version. With --perf a p50 change beyond its interval counts too.",
                "Every version's case is stored in one run; a repro folder (model, inputs, README naming both versions) goes to "
                        + "OUT/version-repro/."})
public final class BisectVersionsCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common = new CommonOptions();

    @Mixin
    OneCaseArgs oneCase = new OneCaseArgs();

    @Option(names = "--backend", required = true, paramLabel = "ID", converter = Converters.Backend.class,
            description = "The backend: ${COMPLETION-CANDIDATES}.")
    BackendId backend;

    @Option(names = "--ort-web", paramLabel = "GOOD..BAD|VERSION",
            description = "onnxruntime-web versions to bisect, or the one version of a browser bisection (default: the pinned one).")
    String ortWeb;

    @Option(names = "--browser", paramLabel = "NAME[@GOOD..BAD]",
            description = "The browser (default chromium; chromium-shell for WebNN), or chromium-shell@GOOD..BAD: Chromium majors to bisect.")
    String browser;

    @Option(names = "--ort", paramLabel = "GOOD..BAD", description = "ONNX Runtime versions to bisect (a native backend).")
    String ort;

    @Option(names = "--axis", paramLabel = "AXIS=GOOD..BAD|VERSION",
            description = "Any version axis by its name (compare --by's version names): a range to bisect, or the one version it stays at. Repeatable.")
    java.util.Map<String, String> axes = new java.util.LinkedHashMap<>();

    @Option(names = "--include-dev", description = "Walk the registry's pre-releases (dev builds) too, not only releases.")
    boolean includeDev;

    @Option(names = "--cached-only", description = "Walk only the versions this machine already has (the build's, the cache's): no fetch.")
    boolean cachedOnly;

    @Option(names = "--perf", description = "A p50 change beyond its interval (and --threshold) counts as a change too, not only the status.")
    boolean perf;

    @Option(names = "--threshold", paramLabel = "FRACTION", converter = Converters.Fraction.class,
            description = "With --perf: the smallest change that counts (default 0.10).")
    double threshold = SampleStats.CHANGE_THRESHOLD;

    @Mixin
    SamplingOptions sampling = new SamplingOptions();

    @Mixin
    LimitOptions limits = new LimitOptions();

    @Option(names = "--out", paramLabel = "DIR", description = "The repro goes to DIR/version-repro/ (default: accelbridge-out).")
    Path out = Path.of("accelbridge-out");

    @Option(names = "--json", description = "Print what was found as JSON on stdout.")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        CommonOptions.checkOut(out);
        java.util.Map<String, String> byAxis = new java.util.LinkedHashMap<>(axes);
        byAxis.put("--ort-web", ortWeb);
        byAxis.put("--ort", ort);
        VersionRange range = VersionRange.parse(byAxis, browser, backend);
        VersionAxis axis = range.axis();
        List<String> versions = obtainable(axis, range.walk(includeDev, cachedOnly), err);
        ModelArg m = oneCase.modelArg();
        Supplier<RunPlan.Builder> base = () -> {
            // the verdict on the backend itself: no fallback hop stands in for it
            RunPlan.Builder b = RunPlan.builder().workload(oneCase::apply).limits(limits::apply)
                    .targets(t -> t.setBackends(List.of(backend)).optChains(Chains.defaults().with(Chains.parse(backend.id()))));
            return b.sampling(s -> {
                if (!perf) {
                    // a verdict needs one run; --perf needs the usual samples
                    s.optWarmups(0).optIterations(1).optMinDuration(Duration.ZERO).optWarmupDuration(Duration.ZERO);
                }
                sampling.apply(s);
            });
        };
        ModelSet models = m.load(range.at(base.get(), versions.get(0)).build());
        if (models.cases().isEmpty()) {
            throw new AccelbridgeException("--model " + oneCase.model() + " has no case to run (" + models.broken().stream()
                    .map(x -> x.problem()).findFirst().orElse("nothing loaded") + ")", "give a model that loads ('accelbridge run --model ...' says why)");
        }
        ModelSet one = new ModelSet(List.of(models.cases().get(0)), List.of());
        err.println("bisecting " + range + " (" + versions.size() + " versions"
                + (cachedOnly ? " this machine has" : includeDev ? " published" : " released") + ") for " + one.cases().get(0).key()
                + " on " + backend + (range.lane().browser() == null ? "" : " in " + range.lane().key()));
        try (ProgressListener progress = new ProgressListener(err, false);
             AccelbridgeSession session = Accelbridge.create(SessionOptions.builder().optStore(common.dbPath()).optOutDir(out)
                     .optOrigin("bisect-versions").optListener(progress).build())) {
            VersionBisector.Outcome o = new VersionBisector(session, base, one, backend, range, perf, threshold, err::println)
                    .bisect(versions, "bisect-versions " + range);
            progress.close();
            Path repro = o.changed() ? VersionRepros.write(o, one.cases().get(0), VersionBisector.reproRoot(out)) : null;
            print(o, repro);
            return Main.OK;
        }
    }

    /** The versions that can be had here, asked once; what cannot is said once and left out (an end that cannot: exit 2). */
    private List<String> obtainable(VersionAxis axis, List<String> versions, PrintWriter err) {
        java.util.Map<String, String> why = cachedOnly ? new java.util.HashMap<>() : axis.obtainable(versions); // what is at hand can be had
        List<String> out = versions.stream().filter(v -> why.get(v) == null).toList();
        for (String end : List.of(versions.get(0), versions.get(versions.size() - 1))) {
            if (why.get(end) != null) {
                throw new AccelbridgeException(axis.subject() + " " + end + " cannot be had here: " + why.get(end),
                        "pick an end this machine can get" + (out.isEmpty() ? "" : " (of the range: " + String.join(", ", out) + ")"));
            }
        }
        if (out.size() < versions.size()) {
            err.println("left out (cannot be had here): " + versions.stream().filter(v -> why.get(v) != null)
                    .map(v -> v + " (" + why.get(v) + ")").collect(java.util.stream.Collectors.joining("; ")));
        }
        return out;
    }

    private void print(VersionBisector.Outcome o, Path repro) {
        PrintWriter stdout = spec.commandLine().getOut();
        String what = o.axis().subject();
        if (json) {
            ObjectNode n = ResultJson.MAPPER.createObjectNode();
            n.put("dimension", o.axis().dimension().name()).put("changed", o.changed()).put("runId", o.runId());
            n.putPOJO("versions", o.versions());
            n.put("lastGood", o.lastGood().version()).put("firstBad", o.changed() ? o.firstBad().version() : null);
            n.set("lastGoodResult", ResultJson.result(o.lastGood().result(), false));
            n.set("firstBadResult", o.changed() ? ResultJson.result(o.firstBad().result(), false) : null);
            ObjectNode tried = n.putObject("tried");
            o.probes().forEach(p -> tried.put(p.version(), p.result().status().name()));
            n.putPOJO("skipped", o.skipped().stream().map(VersionBisector.Probe::version).toList());
            n.put("repro", repro == null ? null : repro.toAbsolutePath().toString());
            stdout.println(n.toPrettyString());
            return;
        }
        if (!o.changed()) {
            stdout.println("no change: " + what + " " + o.versions().get(0) + " and " + o.versions().get(o.versions().size() - 1)
                    + " give the same verdict (" + VersionBisector.describe(o.lastGood().result()) + ")");
            return;
        }
        String first = o.versions().get(0);
        stdout.println("last good (" + first + "'s verdict): " + what + " " + o.lastGood().version() + " — "
                + VersionBisector.describe(o.lastGood().result()));
        stdout.println("first bad (another verdict): " + what + " " + o.firstBad().version() + " — "
                + VersionBisector.describe(o.firstBad().result()));
        var b = o.firstBad().result().analysis().bisection();
        stdout.println("first diverging node in " + o.firstBad().version() + ": " + (b == null ? "none (" + o.firstBad().result().status() + ")" : b.describe()));
        o.skipped().forEach(p -> stdout.println("skipped " + p.version() + ": " + p.result().reason()));
        stdout.println("run " + o.runId() + " (accelbridge compare --by " + o.axis().dimension().name() + " " + o.lastGood().version()
                + " " + o.firstBad().version() + " --run " + o.runId() + ")");
        stdout.println("repro: " + repro.toAbsolutePath());
    }
}
