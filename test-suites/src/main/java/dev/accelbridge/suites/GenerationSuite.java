package dev.accelbridge.suites;

import dev.accelbridge.core.DecoderLayout;
import dev.accelbridge.core.Generation;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.suites.generation.DecodeSteps;
import dev.accelbridge.suites.generation.LlamaDecoderModel;

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
        return size == ModelSize.SMALL ? 8 : 64;
    }

    static int newTokens(ModelSize size) {
        return size == ModelSize.SMALL ? 16 : 64;
    }

    static SuiteModel decoder(ModelSize size) {
        boolean small = size == ModelSize.SMALL;
        LlamaDecoderModel.Config c = small
                ? LlamaDecoderModel.Config.tiny(dev.accelbridge.suites.text.WordPieceTokenizer.builtin().vocabSize())
                : LlamaDecoderModel.Config.large();
        String name = small ? "llama-tiny" : "llama-large";
        long[] prompt = DecodeSteps.sentencePrompt(promptTokens(size));
        int n = newTokens(size);
        return new SuiteModel(ModelFamily.TEXT_GENERATION, name,
                "Llama-style decoder with a KV cache, " + c.layers() + " layers, hidden " + c.hidden() + ", " + c.heads() + " heads ("
                        + c.kvHeads() + " kv), vocab " + c.vocab() + "; greedy " + n + " tokens after " + prompt.length
                        + ", and single steps at past " + DecodeSteps.DEPTHS,
                seed -> LlamaDecoderModel.build(name, c, seed), "prompt-sentence", () -> DecodeSteps.prompt(prompt),
                spec -> cases(spec, c, prompt, n));
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
