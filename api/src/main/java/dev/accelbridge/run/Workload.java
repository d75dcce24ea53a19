package dev.accelbridge.run;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.Limits;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.RuntimeOptions;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.suites.FeedOptions;
import dev.accelbridge.suites.ModelSize;
import dev.accelbridge.suites.SuiteOptions;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

/**
 * What a run runs: the models (built-in suites and your own), how they are made and fed, and at which precisions and
 * batch sizes. One group of a {@link RunPlan}; its JSON form is the record's own, read back through its builder.
 *
 * @param suites      the built-in suites (empty when only user models are given)
 * @param userModels  user model folders or files ({@code --model})
 * @param userFamily  the user models' family ({@code --family}); inferred from their inputs when empty
 * @param size        the suite models' scale ({@code --size small|large|real}): small, realistic, or the published
 *                    architectures at their published sizes
 * @param seed        the seed of the generated models' weights and inputs
 * @param precisions  the precisions every model runs at (fp32 alone: also every variant a model folder ships; a variant not
 *                    shipped is derived from the fp32 model where it can be)
 * @param batchSizes  the batch sizes every model runs at; empty: every input as shipped or given, the suites at batch 1
 * @param feed        how user models are fed ({@code --dim}, {@code --shape}, {@code --input}, {@code --input-range},
 *                    {@code --tolerance})
 * @param shard       the part of the models this run takes ({@code --shard I/N}); empty: all
 * @param modelCache  where generated models are written
 * @param decodeSteps whether the suites run their cases kept out of the default matrix, whose budget they would double:
 *                    the text-generation suite's grid of single decode steps (cache depths 0 to 256, four tokens at once,
 *                    a padded batch) and its decoder's optimized forms (GroupQueryAttention, int4, fp16), and the
 *                    multimodal suite's towers alone; true when suites are named ({@code --suites text-generation}), not
 *                    in the default matrix
 * @param runtimeOptions the ONNX Runtime session options every case runs at ({@code --runtime-option}): each combination
 *                    is a case of its own where its options apply to the backend (default: the defaults alone)
 * @param sweep       whether the width sweep runs ({@code --sweep}, {@link dev.accelbridge.core.WidthSweep}): one encoder at
 *                    widening hidden sizes, to find where WebGPU overtakes wasm and native; alone when no suite is named
 */
@PublicApi
@JsonDeserialize(builder = Workload.Builder.class)
public record Workload(List<ModelFamily> suites, List<Path> userModels, Optional<ModelFamily> userFamily, ModelSize size,
                       long seed, List<Precision> precisions,
                       @com.fasterxml.jackson.annotation.JsonInclude(com.fasterxml.jackson.annotation.JsonInclude.Include.NON_EMPTY) List<Integer> batchSizes, FeedOptions feed, Optional<Shard> shard,
                       Path modelCache, boolean decodeSteps, List<RuntimeOptions> runtimeOptions, boolean sweep) {
    /** The suites a run takes when neither suites nor models are named. */
    public static final List<ModelFamily> DEFAULT_SUITES = List.of(ModelFamily.TEXT, ModelFamily.VISION, ModelFamily.AUDIO,
            ModelFamily.MULTIMODAL, ModelFamily.TEXT_GENERATION);

    /** @throws AccelbridgeException naming the option whose value cannot run */
    public Workload {
        suites = List.copyOf(suites).stream().distinct().toList();
        userModels = List.copyOf(userModels);
        precisions = List.copyOf(precisions).stream().distinct().toList();
        batchSizes = List.copyOf(batchSizes).stream().distinct().toList();
        java.util.Objects.requireNonNull(size, "size");
        runtimeOptions = runtimeOptions == null || runtimeOptions.isEmpty() ? List.of(RuntimeOptions.DEFAULT)
                : List.copyOf(runtimeOptions).stream().distinct().toList();
        if (suites.contains(ModelFamily.OTHER)) {
            throw new AccelbridgeException("'other' is not a built-in suite", "use text, vision, audio or ops");
        }
        if (suites.isEmpty() && userModels.isEmpty() && !sweep) {
            throw new AccelbridgeException("Nothing to run: no suite and no --model", "give --suites text,vision,audio or --model PATH");
        }
        if (precisions.isEmpty()) {
            throw new AccelbridgeException("--precision names no precision", "give --precision fp32,fp16,q8,q4 or a part of it");
        }
        if (batchSizes.stream().anyMatch(b -> b == null || b < 1 || b > Limits.MAX_BATCH)) {
            throw new AccelbridgeException("--batch-sizes must be whole numbers from 1 to " + Limits.MAX_BATCH + ", got " + batchSizes,
                    "e.g. --batch-sizes 1,4,16");
        }
    }

    /** A builder: every field has its default. */
    public static Builder builder() {
        return new Builder();
    }

    /** Whether this workload asks a conformance question (the op suite alone, or user models that all ship test data). */
    public boolean conformance() {
        return PlanDefaults.conformance(suites, userModels);
    }

    /** Builds a {@link Workload}; what a stored plan's {@code workload} is read through. */
    @JsonPOJOBuilder(withPrefix = "opt")
    public static final class Builder {
        private List<ModelFamily> suites;
        private List<Path> userModels = List.of();
        private ModelFamily userFamily;
        private ModelSize size = ModelSize.SMALL;
        private long seed = SuiteOptions.DEFAULT_SEED;
        private List<Precision> precisions = List.of(Precision.FP32);
        private List<Integer> batchSizes = List.of();
        private boolean batchSizesGiven;
        private FeedOptions feed = FeedOptions.none();
        private Shard shard;
        private Path modelCache = PlanDefaults.modelCache();
        private Boolean decodeSteps;
        private List<RuntimeOptions> runtimeOptions = List.of(RuntimeOptions.DEFAULT);
        private boolean sweep;

        private Builder() {
        }

        /** Whether the width sweep runs (default no). */
        public Builder optSweep(boolean s) {
            this.sweep = s;
            return this;
        }

        /** The session options every case runs at, one case per combination (default: the defaults alone). */
        public Builder optRuntimeOptions(List<RuntimeOptions> o) {
            this.runtimeOptions = o == null || o.isEmpty() ? List.of(RuntimeOptions.DEFAULT) : o;
            return this;
        }

        /** Whether the text-generation suite runs its single decode steps too (default: when the suites name it). */
        public Builder optDecodeSteps(Boolean steps) {
            this.decodeSteps = steps;
            return this;
        }

        /** The built-in suites (default: text, vision, audio, text-generation unless user models are given). */
        public Builder optSuites(List<ModelFamily> s) {
            this.suites = s;
            return this;
        }

        /** User model folders or files ({@code --model}). */
        public Builder optUserModels(List<Path> m) {
            this.userModels = m == null ? List.of() : m;
            return this;
        }

        /** The family of the user models ({@code --family}); inferred when absent. */
        public Builder optUserFamily(ModelFamily f) {
            this.userFamily = f;
            return this;
        }

        /** The suite models' scale (default small). */
        public Builder optSize(ModelSize s) {
            this.size = s == null ? ModelSize.SMALL : s;
            return this;
        }

        /** How a plan stored before sizes were named said {@code --size large}: read back as that size. */
        public Builder optLargeModels(boolean large) {
            this.size = large ? ModelSize.LARGE : ModelSize.SMALL;
            return this;
        }

        /** The seed of generated weights and inputs. */
        public Builder optSeed(long s) {
            this.seed = s;
            return this;
        }

        /** The precisions to run at (default fp32). */
        public Builder optPrecisions(List<Precision> p) {
            this.precisions = p == null ? List.of(Precision.FP32) : p;
            return this;
        }

        /** The batch sizes to run at; null or never called: inputs as fed (shipped data as shipped, the suites at batch 1). */
        public Builder optBatchSizes(List<Integer> b) {
            this.batchSizes = b == null ? List.of() : b;
            this.batchSizesGiven = b != null;
            return this;
        }

        /** How user models are fed (default: nothing given, every default applies). */
        public Builder optFeed(FeedOptions f) {
            this.feed = f == null ? FeedOptions.none() : f;
            return this;
        }

        /** Runs only this part of the models ({@code --shard I/N}). */
        public Builder optShard(Shard s) {
            this.shard = s;
            return this;
        }

        /** Where generated models are written. */
        public Builder optModelCache(Path p) {
            this.modelCache = p == null ? PlanDefaults.modelCache() : p;
            return this;
        }

        /**
         * The workload.
         *
         * @throws AccelbridgeException naming the option whose value cannot run
         */
        public Workload build() {
            if (batchSizesGiven && batchSizes.isEmpty()) {
                throw new AccelbridgeException("--batch-sizes must be whole numbers from 1 to " + Limits.MAX_BATCH + ", got []",
                        "e.g. --batch-sizes 1,4,16");
            }
            List<ModelFamily> s = suites != null ? suites : userModels.isEmpty() && !sweep ? DEFAULT_SUITES : List.of();
            return new Workload(s, userModels, Optional.ofNullable(userFamily), size, seed, precisions, batchSizes, feed,
                    Optional.ofNullable(shard), modelCache, decodeSteps != null ? decodeSteps
                    : suites != null, runtimeOptions, sweep);
        }
    }
}
