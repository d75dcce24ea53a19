package dev.accelbridge.tools.cli;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.core.Precision;
import dev.accelbridge.reports.predict.MemoryFit;
import dev.accelbridge.reports.predict.MemoryFits;
import dev.accelbridge.reports.render.Text;
import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.run.ModelSet;
import dev.accelbridge.run.RunPlan;
import dev.accelbridge.suites.ModelFootprint;
import dev.accelbridge.suites.ModelSize;
import dev.accelbridge.suites.SuiteOptions;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.io.PrintWriter;
import java.util.List;
import java.util.concurrent.Callable;

/**
 * {@code accelbridge fit}: will a model fit a device class on WebGPU, from a measured GPU ledger (its own, or a smaller
 * model's of its family scaled), labelled as a prediction. Nothing is written to the store.
 */
@Command(name = "fit", mixinStandardHelpOptions = true,
        description = "PREDICT (never measure) whether a model fits a device class on WebGPU: its peak GPU bytes and largest "
                + "buffer from the page's measured ledger of the model itself, or of a smaller model of its family (--from) scaled "
                + "by weights, held against the device's memory and buffer limits. Nothing is stored.")
public final class FitCommand implements Callable<Integer> {
    @Mixin
    CommonOptions common = new CommonOptions();

    @Option(names = "--model", required = true, paramLabel = "PATH|NAME", description = "The model: a folder or .onnx file, or a suite model's name.")
    String model;

    @Option(names = "--size", paramLabel = "SIZE", converter = Converters.Size.class, description = "A suite model's size: small (default), large or real.")
    ModelSize size = ModelSize.SMALL;

    @Option(names = "--from", paramLabel = "PATH|NAME", description = "A measured model of the same family to scale from when the store "
            + "has no ledger of --model itself.")
    String from;

    @Option(names = "--from-size", paramLabel = "SIZE", converter = Converters.Size.class, description = "--from's suite size (default small).")
    ModelSize fromSize = ModelSize.SMALL;

    @Option(names = "--browser", paramLabel = "NAME", converter = Converters.Browser.class, description = "The lane whose ledgers count (default chromium).")
    BrowserKind browser = BrowserKind.CHROMIUM;

    @Option(names = "--engine", paramLabel = "ENGINE", description = "The onnxruntime-web engine whose ledgers count: jsep (default), webgpu-ep, webgpu-ep-jspi.")
    String engine = OrtWebEngine.PINNED.id();

    @Option(names = "--device-memory", paramLabel = "SIZE", converter = Converters.ByteSize.class,
            description = "GPU memory the page may use on the device class (4GiB); WebGPU cannot tell it.")
    Long deviceMemory;

    @Option(names = "--max-buffer-size", paramLabel = "SIZE", converter = Converters.ByteSize.class, description = "The adapter's maxBufferSize.")
    Long maxBuffer;

    @Option(names = "--max-binding-size", paramLabel = "SIZE", converter = Converters.ByteSize.class,
            description = "The adapter's maxStorageBufferBindingSize.")
    Long maxBinding;

    @Option(names = "--like-host", paramLabel = "NAME", description = "Take the buffer limits from the device of a recorded host (its name or fingerprint).")
    String likeHost;

    @Option(names = "--seed", description = "Seed of the suites' generated weights and inputs (default ${DEFAULT-VALUE}).")
    long seed = SuiteOptions.DEFAULT_SEED;

    @Option(names = "--json", description = "Print the fit as JSON (\"kind\": \"prediction\").")
    boolean json;

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        if (likeHost != null && (maxBuffer != null || maxBinding != null)) {
            throw new AccelbridgeException("--like-host takes the buffer limits from that host's device", "give --like-host, or the limits, not both");
        }
        ModelCase target = oneCase(model, size, "--model");
        ModelCase reference = from == null ? null : oneCase(from, fromSize, "--from"); // found when tried: its errors said --model
        OrtWebEngine e = OrtWebEngine.of(engine);
        LaneId lane = e.keyed(LaneId.of(browser));
        try (MatrixStore store = MatrixStore.openReadOnly(common.dbPath())) {
            var results = store.allResults();
            long memory = deviceMemory == null ? -1 : deviceMemory;
            MemoryFit.DeviceClass device = likeHost != null ? MemoryFits.recordedHost(results, likeHost, memory)
                    : new MemoryFit.DeviceClass("the device class given", memory, maxBuffer == null ? -1 : maxBuffer, maxBinding == null ? -1 : maxBinding);
            MemoryFit f = MemoryFits.answer(results, CaseId.of(target, BackendId.WEBGPU, lane), sizes(target),
                    reference == null ? null : CaseId.of(reference, BackendId.WEBGPU, lane), reference == null ? null : sizes(reference), device);
            // the model's name and the case key it rests on are a folder's words: each line of the prediction is kept one line
            out.print(json ? MemoryFits.json(f).toPrettyString() + System.lineSeparator() : f.describe().lines()
                    .map(Text::terminal).map(l -> l + System.lineSeparator()).collect(java.util.stream.Collectors.joining()));
            if (!json && e.ledgerCaveat() != null) {
                out.println("  the ledger it rests on is " + e.id() + "'s: " + e.ledgerCaveat());
            }
            return f.verdict() == MemoryFit.Verdict.DOES_NOT_FIT ? Main.POLICY_FAILED : Main.OK;
        }
    }

    /** The model's first fp32 case as a run would feed it: a suite model at {@code s}, or a folder or file. */
    private ModelCase oneCase(String value, ModelSize s, String option) {
        ModelArg arg = new ModelArg(value, option);
        RunPlan plan = RunPlan.builder().workload(w -> arg.apply(w.optSeed(seed).optSize(s), seed))
                .targets(t -> t.setBackends(List.of(BackendId.WEBGPU))).build();
        ModelSet set = arg.load(plan);
        return set.cases().stream().filter(c -> c.precision() == Precision.FP32).findFirst()
                .orElseThrow(() -> new AccelbridgeException(option + " " + value + " gave no case to fit"
                        + (set.broken().isEmpty() ? "" : ": " + set.broken().get(0)), "give an ONNX model Accelbridge can load"));
    }

    private static MemoryFit.Sizes sizes(ModelCase mc) {
        ModelFootprint fp = ModelFootprint.of(mc);
        return new MemoryFit.Sizes(fp.weightBytes(), fp.largest() == null ? 0 : fp.largest().bytes());
    }
}
