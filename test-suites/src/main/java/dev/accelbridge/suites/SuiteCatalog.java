package dev.accelbridge.suites;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.Generation;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.TensorSpec;
import dev.accelbridge.suites.onnx.GeneratedModel;
import dev.accelbridge.suites.onnx.OnnxTensors;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.StringStringEntryProto;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The built-in suites: text (BERT-style encoder), vision (convnet classifier), audio (Whisper-style encoder),
 * multimodal (CLIP-style two towers) and text generation (Llama-style decoders), authored with seeded weights and written to the cache directory on first use (reused after,
 * keyed by name, size and seed).
 */
@PublicApi
public final class SuiteCatalog {
    /** Bumped whenever an authored graph changes, so stale cached files are not reused. */
    static final int GENERATOR_VERSION = 4;
    private static final List<ModelFamily> FAMILIES = List.of(ModelFamily.TEXT, ModelFamily.VISION, ModelFamily.AUDIO,
            ModelFamily.MULTIMODAL, ModelFamily.TEXT_GENERATION);

    private final SuiteOptions options;
    private final Map<String, Generated> generated = new LinkedHashMap<>();

    private record Generated(SuiteModel model, ModelSpec spec, double flops, long bytes) {
    }

    private SuiteCatalog(SuiteOptions options) {
        this.options = options;
    }

    /** A catalog generating into {@code options.cacheDir()}. */
    public static SuiteCatalog create(SuiteOptions options) {
        return new SuiteCatalog(options);
    }

    /** The options it was created with. */
    public SuiteOptions options() {
        return options;
    }

    /** The family of the suite model called {@code name} at either size (names differ by size), found without generating it. */
    public static java.util.Optional<ModelFamily> familyOf(String name) {
        if (dev.accelbridge.core.WidthSweep.width(name).isPresent()) {
            return java.util.Optional.of(ModelFamily.TEXT);
        }
        for (ModelSize size : ModelSize.values()) {
            for (ModelFamily f : FAMILIES) {
                if (SuiteDefinitions.models(f, size).stream().anyMatch(m -> m.name().equals(name))) {
                    return java.util.Optional.of(f);
                }
            }
        }
        return java.util.Optional.empty();
    }

    /** The width sweep's cases ({@link dev.accelbridge.core.WidthSweep}), smallest width first (files written or reused). */
    public List<ModelCase> sweepCases() {
        List<ModelCase> out = new ArrayList<>();
        for (SuiteModel m : SuiteDefinitions.sweep()) {
            out.addAll(m.cases().apply(generate(m).spec()));
        }
        return out;
    }

    /** The families with built-in suites: text, vision, audio, multimodal, text generation. */
    public static List<ModelFamily> families() {
        return FAMILIES;
    }

    /**
     * The cases of a family: each model (written or reused in the cache directory) with its generated input
     * set. Expected outputs are empty: the native CPU run is the reference.
     */
    public List<ModelCase> cases(ModelFamily family) {
        List<ModelCase> out = new ArrayList<>();
        for (SuiteModel m : SuiteDefinitions.models(family, options.size())) {
            List<ModelCase> cases = m.cases().apply(generate(m).spec());
            if (m.encoder() != null) { // an encoder-decoder: its generations start with the encoder's own file
                Generation.Encoder e = Generation.Encoder.of(generate(m.encoder()).spec());
                cases = cases.stream().map(c -> c.scenario() instanceof Generation g ? c.withScenario(g.withEncoder(e)) : c).toList();
            }
            out.addAll(cases);
        }
        return out;
    }

    /**
     * Whether a case of {@link #cases} runs only when its suite is named, not in the default matrix: the text-generation
     * suite's single decode steps and its decoder's optimized forms, and the multimodal suite's towers alone (each on every
     * lane would double the matrix's budget; the pair runs both towers).
     */
    public static boolean onlyWhenNamed(ModelCase mc) {
        return mc.model().family() == ModelFamily.TEXT_GENERATION && GenerationSuite.onlyWhenNamed(mc)
                || mc.model().family() == ModelFamily.MULTIMODAL && SuiteDefinitions.isTower(mc.model().name());
    }

    /** The model specs of a family (files written or reused). */
    public List<ModelSpec> models(ModelFamily family) {
        return SuiteDefinitions.models(family, options.size()).stream().map(m -> generate(m).spec()).toList();
    }

    /** Every built-in model, as records. */
    public List<SuiteDescription> descriptions() {
        List<SuiteDescription> out = new ArrayList<>();
        for (ModelFamily f : FAMILIES) {
            for (SuiteModel m : SuiteDefinitions.models(f, options.size())) {
                Generated g = generate(m);
                ModelSpec s = g.spec();
                List<String> fed = m.inputs().get().stream().map(NamedTensor::toString).toList();
                out.add(new SuiteDescription(f.id(), s.name(), m.summary(), s.opset(), s.parameters(), g.flops() / 1e6,
                        s.inputs(), m.inputSet(), fed, s.outputs(), s.ops(), s.path().toString(), s.sha256(), g.bytes()));
            }
        }
        return out;
    }

    /** A human-readable table of every built-in model (what {@code accelbridge suites} prints). */
    public String describe() {
        StringBuilder b = new StringBuilder();
        b.append(String.format(Locale.ROOT, "Built-in suites (size %s, seed %d, cache %s)%n%n",
                options.size().name().toLowerCase(Locale.ROOT), options.seed(), options.cacheDir()));
        List<SuiteDescription> ds = descriptions();
        int fw = ds.stream().mapToInt(d -> d.family().length()).max().orElse(6);
        int mw = ds.stream().mapToInt(d -> d.name().length()).max().orElse(5);
        String head = "%-" + Math.max(6, fw) + "s %-" + Math.max(5, mw) + "s %5s %12s %10s %10s %4s%n";
        String row = "%-" + Math.max(6, fw) + "s %-" + Math.max(5, mw) + "s %5d %,12d %10.1f %10s %4d%n";
        b.append(String.format(Locale.ROOT, head, "family", "model", "opset", "parameters", "~MFLOPs", "size", "ops"));
        for (SuiteDescription d : ds) {
            b.append(String.format(Locale.ROOT, row, d.family(), d.name(), d.opset(), d.parameters(), d.mflops(), humanBytes(d.bytes()),
                    d.ops().size()));
        }
        for (SuiteDescription d : ds) {
            b.append(String.format(Locale.ROOT, "%n%s/%s — %s%n", d.family(), d.name(), d.summary()));
            b.append("  inputs:  ").append(d.inputs().stream().map(SuiteCatalog::spec).collect(Collectors.joining(", "))).append('\n');
            b.append("  fed (").append(d.inputSet()).append("): ").append(String.join(", ", d.fedInputs())).append('\n');
            b.append("  outputs: ").append(d.outputs().stream().map(SuiteCatalog::spec).collect(Collectors.joining(", "))).append('\n');
            b.append("  ops (").append(d.ops().size()).append("): ").append(String.join(", ", d.ops())).append('\n');
            b.append("  file:    ").append(d.path()).append("  sha256 ").append(d.sha256(), 0, 16).append("…\n");
        }
        return b.toString();
    }

    private static String spec(TensorSpec s) {
        return s.name() + ":" + s.dtype().webName() + Arrays.stream(s.shape()).mapToObj(x -> x < 0 ? "?" : Long.toString(x))
                .collect(Collectors.joining(",", "[", "]"));
    }

    private static String humanBytes(long n) {
        return n >= 1 << 20 ? String.format(Locale.ROOT, "%.1f MiB", n / 1048576.0) : String.format(Locale.ROOT, "%.1f KiB", n / 1024.0);
    }

    /** The cache file a model is written to. */
    Path fileOf(SuiteModel m) {
        return options.cacheDir().resolve(String.format(Locale.ROOT, "%s-seed%d-g%d.onnx", m.name(), options.seed(), GENERATOR_VERSION));
    }

    private synchronized Generated generate(SuiteModel m) {
        Generated g = generated.get(m.name());
        if (g != null) {
            return g;
        }
        Path file = fileOf(m);
        ModelProto proto = OnnxTensors.readCached(file);
        if (proto == null) { // absent or damaged: regenerated
            GeneratedModel built = m.builder().apply(options.seed());
            proto = built.model().toBuilder().addMetadataProps(StringStringEntryProto.newBuilder()
                    .setKey(OnnxModels.FLOPS_KEY).setValue(Long.toString(Math.round(built.flops())))).build();
            OnnxTensors.writeAtomically(file, proto.toByteArray(), "generated model");
        }
        ModelSpec spec = OnnxModels.inspectAuthored(file, proto, m.family(), m.name());
        double flops = spec.cost().flopsPerItem().orElse(Double.NaN);
        long bytes;
        try {
            bytes = Files.size(file);
        } catch (IOException e) {
            bytes = -1;
        }
        g = new Generated(m, spec, flops, bytes);
        generated.put(m.name(), g);
        return g;
    }
}
