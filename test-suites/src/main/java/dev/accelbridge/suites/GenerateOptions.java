package dev.accelbridge.suites;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.DecoderLayout;
import dev.accelbridge.core.Generation;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.ScenarioId;
import dev.accelbridge.suites.generation.DecodeSteps;

import java.util.ArrayList;
import java.util.List;

/**
 * How a decoder is run as a generation ({@code --generate}, {@code --prompt-tokens}, {@code --new-tokens}): a user's model
 * whose inputs are named as Hugging Face exporters name a decoder's is one without being told; {@code force} says so of a
 * model that is not recognised (and so gets one error naming what it lacks). The lengths apply to the text-generation
 * suite too.
 *
 * @param force        run every user model as a generation
 * @param promptTokens the prompt's length; null: the default (8, or the suite's)
 * @param newTokens    the tokens to generate; null: the default (32, or the suite's)
 */
@PublicApi
public record GenerateOptions(boolean force, Integer promptTokens, Integer newTokens) {
    /** Nothing given. */
    public static final GenerateOptions DEFAULT = new GenerateOptions(false, null, null);
    /** A user decoder's prompt length when none is given. */
    public static final int DEFAULT_PROMPT = 8;
    /** A user decoder's new tokens when none are given. */
    public static final int DEFAULT_NEW = 32;

    public GenerateOptions {
        for (Integer n : new Integer[] {promptTokens, newTokens}) {
            if (n != null && (n < 1 || n > ScenarioId.MAX_TOKENS)) {
                throw new AccelbridgeException("--prompt-tokens and --new-tokens must be 1.." + ScenarioId.MAX_TOKENS + ", got " + n,
                        "e.g. --prompt-tokens 8 --new-tokens 32");
            }
        }
    }

    /** These options with {@code over}'s given values winning. */
    public GenerateOptions overriddenBy(GenerateOptions over) {
        return new GenerateOptions(force || over.force, over.promptTokens != null ? over.promptTokens : promptTokens,
                over.newTokens != null ? over.newTokens : newTokens);
    }

    /** True when nothing was given. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isEmpty() {
        return equals(DEFAULT);
    }

    /**
     * A decoder's generation case: a prompt of the built-in sentences' token ids (folded into the model's vocabulary when
     * it is smaller), greedy tokens after it.
     *
     * @throws AccelbridgeException naming what the graph lacks to be fed as a decoder
     */
    public ModelCase generationCase(ModelSpec spec) {
        DecoderLayout layout = DecoderLayout.of(spec);
        if (layout.encoderHidden() != null) {
            throw new SuiteException.UnfeedableInputException("Model '" + spec.name() + "' is the decoder of an encoder-decoder "
                    + "(it reads encoder_hidden_states): alone, nothing gives it the encoder's states", "give the export's folder, "
                    + "encoder_model.onnx beside decoder_model_merged.onnx and its generation_config.json");
        }
        int p = promptTokens != null ? promptTokens : DEFAULT_PROMPT;
        return ModelCase.generating(spec, "prompt-sentence", prompt(p, layout.vocab()),
                Generation.of(newTokens != null ? newTokens : DEFAULT_NEW, layout));
    }

    /**
     * What a decoder's own {@code generation_config.json} (in {@code dir} or the folder above) says of its generation:
     * {@code max_new_tokens} as the tokens to generate, bounded by {@link ScenarioId#MAX_TOKENS}; nothing when it has no
     * such file or value. The command line and {@code accelbridge.json} win over it.
     */
    public static GenerateOptions ofConfig(java.nio.file.Path dir) {
        for (java.nio.file.Path d : java.util.Arrays.asList(dir, dir.getParent())) {
            java.nio.file.Path cfg = d == null ? null : d.resolve("generation_config.json");
            if (cfg == null || !java.nio.file.Files.isRegularFile(cfg)) {
                continue;
            }
            try {
                if (java.nio.file.Files.size(cfg) > (1 << 20)) {
                    return DEFAULT; // no generation config is that large: not one to read
                }
                com.fasterxml.jackson.databind.JsonNode n = new com.fasterxml.jackson.databind.ObjectMapper().readTree(cfg.toFile());
                // a count past a long's range is bounded, not wrapped (found when tried: 2^63 + 4 became 5)
                com.fasterxml.jackson.databind.JsonNode m = n.path("max_new_tokens");
                long max = !m.isNumber() ? 0 : m.canConvertToLong() ? m.asLong() : m.asDouble() > 0 ? Long.MAX_VALUE : 0;
                return max < 1 ? DEFAULT : new GenerateOptions(false, null, (int) Math.min(max, ScenarioId.MAX_TOKENS));
            } catch (java.io.IOException e) {
                throw new SuiteException.InvalidTestDataException(cfg + " is not valid JSON: " + e.getMessage(),
                        "re-save it with generation_config.save_pretrained()", e);
            }
        }
        return DEFAULT;
    }

    /** A generation case of a suite with the lengths given here (a length not given stays the suite's); others as they are. */
    public ModelCase applyTo(ModelCase mc) {
        if (!(mc.scenario() instanceof Generation given) || promptTokens == null && newTokens == null) {
            return mc;
        }
        // an encoder-decoder's prompt is its task tokens and its input the audio: only the new tokens change
        boolean encoded = given.encoder() != null;
        List<NamedTensor> prompt = promptTokens == null || encoded ? mc.inputs() : prompt(promptTokens, given.layout().vocab());
        Generation g = newTokens == null ? given : given.withNewTokens(newTokens);
        return ModelCase.generating(mc.model(), mc.inputSet(), prompt, g).withPrecision(mc.precision());
    }

    private static List<NamedTensor> prompt(int length, int vocab) {
        long[] ids = DecodeSteps.sentencePrompt(length);
        List<Long> folded = new ArrayList<>();
        for (long id : ids) {
            folded.add(vocab > 0 ? Math.floorMod(id, vocab) : id);
        }
        return DecodeSteps.prompt(folded.stream().mapToLong(Long::longValue).toArray());
    }
}
