package dev.accelbridge.suites;

import dev.accelbridge.core.DType;
import dev.accelbridge.core.DecoderLayout;
import dev.accelbridge.core.Generation;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.Precision;
import dev.accelbridge.suites.generation.DecodeSteps;
import dev.accelbridge.suites.generation.LlamaDecoderModel;
import dev.accelbridge.suites.generation.OptimizedDecoderModel;
import dev.accelbridge.suites.text.WordPieceTokenizer;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The text-generation suite's decoder at each size, and its cases: a generation, then the grid of single decode steps
 * ({@link #cases} makes them for any decoder of the suite's shape, such as a test's deliberately broken one).
 */
public final class GenerationSuite {
    private GenerationSuite() {
    }

    /** The prompt length and new tokens of the suite's generation at {@code size}. */
    static int promptTokens(ModelSize size) {
        return switch (size) {
            case SMALL -> 8;
            case LARGE -> 64;
            case REAL -> 32;
        };
    }

    static int newTokens(ModelSize size) {
        return switch (size) {
            case SMALL -> 16;
            case LARGE -> 64;
            case REAL -> 16; // a 0.5 B decoder on two CPU cores: about a second a token on wasm
        };
    }

    /** The suite's decoder at {@code size}. */
    private static LlamaDecoderModel.Config config(ModelSize size) {
        return switch (size) {
            case SMALL -> LlamaDecoderModel.Config.tiny(WordPieceTokenizer.builtin().vocabSize());
            case LARGE -> LlamaDecoderModel.Config.large();
            case REAL -> LlamaDecoderModel.Config.qwen25Half(2048);
        };
    }

    /** Its name at {@code size}, which the optimized forms extend. */
    private static String name(ModelSize size) {
        return switch (size) {
            case SMALL -> "llama-tiny";
            case LARGE -> "llama-large";
            case REAL -> "decoder-0.5b";
        };
    }

    /**
     * The suite's models at {@code size}: the plain decoder and its optimized forms; at the real scale the optimized forms
     * alone (int4 with fp32 and with fp16 activations, as transformers.js's {@code q4} and {@code q4f16} files), which run in
     * the default matrix there (the plain form's fp32 weights pass 2 GB).
     */
    static List<SuiteModel> models(ModelSize size) {
        List<SuiteModel> out = new ArrayList<>();
        if (size != ModelSize.REAL) {
            out.add(decoder(size));
        }
        out.addAll(optimized(size));
        return out;
    }

    static SuiteModel decoder(ModelSize size) {
        LlamaDecoderModel.Config c = config(size);
        String name = name(size);
        long[] prompt = DecodeSteps.sentencePrompt(promptTokens(size));
        int n = newTokens(size);
        return new SuiteModel(ModelFamily.TEXT_GENERATION, name,
                "Llama-style decoder with a KV cache, " + c.layers() + " layers, hidden " + c.hidden() + ", " + c.heads() + " heads ("
                        + c.kvHeads() + " kv), vocab " + c.vocab() + "; greedy " + n + " tokens after " + prompt.length
                        + ", and single steps at past " + DecodeSteps.DEPTHS,
                seed -> LlamaDecoderModel.build(name, c, seed), "prompt-sentence", () -> DecodeSteps.prompt(prompt),
                spec -> cases(spec, c, prompt, n));
    }

    /**
     * The same decoder in ONNX Runtime's optimized form ({@link OptimizedDecoderModel}): {@code llama-tiny-gqa-int4} with
     * fp32 activations and {@code llama-tiny-gqa-int4-fp16}; their generation only, judged like the plain form's.
     */
    static List<SuiteModel> optimized(ModelSize size) {
        LlamaDecoderModel.Config c = config(size);
        long[] prompt = DecodeSteps.sentencePrompt(promptTokens(size));
        int n = newTokens(size);
        List<SuiteModel> out = new ArrayList<>();
        for (DType act : List.of(DType.FLOAT32, DType.FLOAT16)) {
            boolean half = act == DType.FLOAT16;
            String name = size == ModelSize.REAL ? name(size) + (half ? "-q4f16" : "-q4") : name(size) + "-gqa-int4" + (half ? "-fp16" : "");
            String what = size == ModelSize.REAL ? "a decoder in Qwen2.5-0.5B's layout (its published configuration, " + String.format(
                    java.util.Locale.ROOT, "%,d", c.parameters()) + " parameters, seeded weights: " + c.layers() + " layers, hidden " + c.hidden()
                    + ", " + c.heads() + " heads over " + c.kvHeads() + " kv, q/k/v biases, tied head, vocab " + c.vocab() + ") as the model builder emits it"
                    : "the same decoder as the model builder emits it";
            out.add(new SuiteModel(ModelFamily.TEXT_GENERATION, name,
                    what + ": GroupQueryAttention, RotaryEmbedding, SkipSimplifiedLayerNormalization, "
                            + "int4 MatMulNBits (blocks of " + OptimizedDecoderModel.BLOCK + "), " + (act == DType.FLOAT16 ? "fp16" : "fp32") + " activations; greedy "
                            + n + " tokens after " + prompt.length,
                    seed -> OptimizedDecoderModel.build(name, c, act, seed), "prompt-sentence", () -> DecodeSteps.prompt(prompt),
                    spec -> List.of(ModelCase.generating(spec, "prompt-sentence", DecodeSteps.prompt(prompt),
                            Generation.of(n, DecoderLayout.of(spec))).withPrecision(act == DType.FLOAT16 ? Precision.FP16 : Precision.FP32))));
        }
        return out;
    }

    /** Whether a case of the suite runs only when the suite is named: the plain decoder's single steps and the optimized forms. */
    public static boolean onlyWhenNamed(ModelCase mc) {
        return !(mc.scenario() instanceof Generation) || mc.model().name().contains("-gqa-");
    }

    /** A decoder's generation of {@code newTokens} after {@code prompt}, then its grid of single steps. */
    public static List<ModelCase> cases(ModelSpec spec, LlamaDecoderModel.Config c, long[] prompt, int newTokens) {
        List<ModelCase> out = new ArrayList<>();
        out.add(ModelCase.generating(spec, "prompt-sentence", DecodeSteps.prompt(prompt), Generation.of(newTokens, DecoderLayout.of(spec))));
        for (DecodeSteps.Step s : DecodeSteps.grid(c, DecodeSteps.SEED, prompt)) {
            out.add(new ModelCase(spec, s.name(), s.inputs(), Optional.empty()));
        }
        return out;
    }
}
