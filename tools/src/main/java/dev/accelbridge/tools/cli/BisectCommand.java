package dev.accelbridge.tools.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import dev.accelbridge.api.Accelbridge;
import dev.accelbridge.api.AccelbridgeSession;
import dev.accelbridge.api.CaseResult;
import dev.accelbridge.api.RunRequest;
import dev.accelbridge.api.SessionOptions;
import dev.accelbridge.api.SessionRun;
import dev.accelbridge.browser.page.OrtWebAxis;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Bisection;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.BrowserSpec;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.store.ResultJson;
import dev.accelbridge.run.ModelSet;
import dev.accelbridge.run.RunPlan;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;

/**
 * {@code accelbridge bisect}: runs one model on one backend beside its native CPU reference and bisects it to the first
 * diverging node whatever its status, writing the single-node repro. The case is stored as a run like any other.
 */
@Command(name = "bisect", mixinStandardHelpOptions = true,
        description = "Find the first node where a backend's tensors leave the native CPU reference's (all intermediates "
                + "exposed, same input), and write a single-node repro (ONNX test-data layout + README.md) for a bug report.")
public final class BisectCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common = new CommonOptions();

    @Mixin
    OneCaseArgs oneCase = new OneCaseArgs();

    @Option(names = "--backend", required = true, paramLabel = "ID", converter = Converters.Backend.class,
            description = "The backend to bisect: ${COMPLETION-CANDIDATES}.")
    BackendId backend;

    @Option(names = "--browser", paramLabel = "NAME", converter = Converters.BrowserAt.class,
            description = "The browser of a browser backend (default chromium; chromium-shell for WebNN); NAME@RELEASE as run takes it.")
    BrowserSpec browser;

    @Option(names = "--ort-web", paramLabel = "VERSION", converter = Converters.OrtWebVersion.class,
            description = "The onnxruntime-web version the browser case runs under (default: the pinned one).")
    String ortWeb;

    @Option(names = "--engines", paramLabel = "ENGINE", converter = Converters.OrtWebEngine.class,
            description = "The onnxruntime-web engine it runs on: jsep, webgpu-ep, webgpu-ep-jspi (default: as run's).")
    String engine;

    @Mixin
    LimitOptions limits = new LimitOptions();

    @Option(names = "--out", paramLabel = "DIR", description = "The repro goes to DIR/repro/ (default: accelbridge-out).")
    Path out = Path.of("accelbridge-out");

    @Option(names = "--json", description = "Print the bisection(s) as a JSON array on stdout.")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter err = spec.commandLine().getErr();
        PrintWriter stdout = spec.commandLine().getOut();
        if (backend == BackendId.CPU) {
            throw new AccelbridgeException("cpu is the reference: there is nothing to bisect it against",
                    "bisect another backend, e.g. --backend wasm");
        }
        BrowserSpec b = browser != null ? browser
                : BrowserSpec.of(backend.isWebnn() ? BrowserKind.CHROMIUM_SHELL : BrowserKind.CHROMIUM);
        RunPlan plan = RunPlan.builder().workload(oneCase::apply)
                .targets(t -> t.setBackends(List.of(backend)).optBrowserSpecs(List.of(b))
                        .optVersions(OrtWebAxis.DIMENSION.name(), ortWeb == null ? null : List.of(ortWeb))
                        .optVersions(OrtWebEngine.AXIS, engine == null ? null : List.of(engine)))
                .sampling(s -> s.optWarmups(0).optIterations(1))
                .limits(limits::apply)
                .drillDown(d -> d.optBisectAlways(true)).build();
        ModelSet set = oneCase.modelArg().load(plan);
        try (ProgressListener progress = new ProgressListener(err, false);
             AccelbridgeSession session = Accelbridge.create(SessionOptions.builder().optStore(common.dbPath()).optOutDir(out)
                     .optOrigin("bisect").optListener(progress).build())) {
            SessionRun run = session.run(RunRequest.builder().setPlan(plan).optModels(set).build());
            progress.close();
            List<RunResult> results = run.results().stream().map(CaseResult::result).toList();
            List<RunResult> bisected = results.stream().filter(r -> r.analysis().bisection() != null).toList();
            if (json) {
                ArrayNode a = ResultJson.MAPPER.createArrayNode();
                bisected.forEach(r -> a.add(ResultJson.result(r, false)));
                stdout.println(a.toPrettyString());
            } else {
                for (RunResult r : results) {
                    stdout.println(r.id().row() + " on " + (r.actual().map(BackendId::id).orElse("-")) + ": " + r.status()
                            + (r.reason() == null ? "" : " (" + r.reason() + ")"));
                    Bisection bi = r.analysis().bisection();
                    if (bi != null) {
                        stdout.println("  " + bi.describe());
                        bi.path().forEach(st -> stdout.printf(Locale.ROOT, "    %-40s %-18s max abs err %.4g%n", st.node(), st.opType(), st.maxAbsErr()));
                        if (bi.reproDir() != null) {
                            stdout.println("  repro: " + bi.reproDir());
                        }
                        if (bi.note() != null) {
                            stdout.println("  note: " + bi.note());
                        }
                    }
                }
            }
            if (bisected.isEmpty()) {
                err.println("nothing was bisected: the case did not run on " + backend + " (see its status above)");
            }
            return Main.OK;
        }
    }
}
