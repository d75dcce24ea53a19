package dev.accelbridge.tools.cli;

import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.RuntimeOption;
import dev.accelbridge.core.RuntimeOptions;
import dev.accelbridge.run.Shard;
import dev.accelbridge.run.Workload;
import dev.accelbridge.suites.ModelSize;
import dev.accelbridge.suites.SuiteOptions;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** What a run runs ({@link Workload}), as options {@code run} and {@code serve} share: one line per option of the group. */
@OptionSection("What runs: suites, your models, their inputs")
final class WorkloadOptions {
    @Option(names = {"-s", "--suites"}, paramLabel = "LIST", split = ",", converter = Converters.Suite.class,
            description = "Built-in suites: text, vision, audio, multimodal, text-generation, ops (default: the first five; none when only --model is given; a suite named runs every case it has: the decoder's single steps and optimized forms, each tower of the multimodal pair alone).")
    List<ModelFamily> suites;

    @Option(names = {"-m", "--model"}, paramLabel = "PATH",
            description = "Your own model: a folder (Optimum export or ONNX test-data layout) or an .onnx file. Repeatable.")
    List<Path> models = new ArrayList<>();

    @Option(names = "--family", paramLabel = "FAMILY", converter = Converters.Family.class,
            description = "Family of the --model models (text, vision, audio, multimodal, text-generation, other); inferred from the inputs when absent.")
    ModelFamily family;

    @Option(names = "--sweep", description = "Also run the width sweep: one text encoder (4 layers, sequence 128) at hidden sizes "
            + "64 to 1024, to find the size from which WebGPU overtakes wasm and native on this device (alone when no suite is named).")
    boolean sweep;

    @Option(names = "--size", paramLabel = "SIZE", converter = Converters.Size.class,
            description = "Suite model size: small (default, a few tens of MFLOPs), large (realistic) or real (the published "
                    + "architectures at their published sizes: BERT-base, ViT-B/16, a 0.5 B decoder in int4).")
    ModelSize size = ModelSize.SMALL;

    @Option(names = "--seed", description = "Seed of the generated weights and inputs (default ${DEFAULT-VALUE}).")
    long seed = SuiteOptions.DEFAULT_SEED;

    @Mixin
    FeedArgs feedArgs = new FeedArgs();

    @Option(names = "--precision", paramLabel = "LIST", split = ",", converter = Converters.PrecisionId.class,
            description = "Precisions (transformers.js dtypes) to run every model at: fp32, fp16, int8, q8, uint8, q4, q4f16, bnb4 "
                    + "(default fp32: and every variant a model folder ships). A variant the folder ships runs as shipped; fp16, "
                    + "int8, q8 and q4 are derived from fp32 otherwise. Each is judged against the fp32 native CPU reference.")
    List<Precision> precisions = List.of(Precision.FP32);

    @Option(names = "--batch-sizes", paramLabel = "LIST", split = ",", converter = Converters.BatchSize.class,
            description = "Batch sizes to run every model at (default: inputs as shipped or given, judged against their shipped "
                    + "expected outputs; the suites at 1); a model with a fixed batch runs at its own.")
    List<Integer> batchSizes;

    @Option(names = "--shard", paramLabel = "I/N", converter = Converters.ShardArg.class,
            description = "Run only the I-th of N parts of the models (deterministic; merge the N exports with 'accelbridge merge').")
    Shard shard;

    @Option(names = "--runtime-option", paramLabel = "NAME=V[,V]", converter = Converters.RuntimeOptionArg.class,
            description = "An ONNX Runtime session option to sweep, each value a case of its own where it applies: outputs=auto,cpu,"
                    + "gpu-buffer (where WebGPU leaves outputs; gpu-buffer reads them back inside the timed run), graph-capture="
                    + "off,on (WebGPU), optimization=all,extended,basic,disabled (graph optimization, both sides), "
                    + "intra-op-threads=auto,1,2,4,... (native), validation=basic,disabled,wgpu-only,full and buffer-cache=bucket,"
                    + "simple,lazy-release,disabled (WebGPU on the native WebGPU EP alone). Repeatable; an option no case would "
                    + "take is refused.")
    List<java.util.Map.Entry<RuntimeOption, List<String>>> runtimeOptions = List.of();

    /** Puts the options on the group's builder. */
    Workload.Builder apply(Workload.Builder w) {
        java.util.Map<RuntimeOption, List<String>> given = new java.util.EnumMap<>(RuntimeOption.class);
        runtimeOptions.forEach(e -> given.put(e.getKey(), e.getValue()));
        return w.optSuites(suites).optUserModels(models).optUserFamily(family).optSize(size).optSweep(sweep).optSeed(seed)
                .optFeed(feedArgs.feed()).optPrecisions(precisions).optBatchSizes(batchSizes).optShard(shard)
                .optRuntimeOptions(RuntimeOptions.sweep(given));
    }
}
