package dev.accelbridge.suites;

import dev.accelbridge.core.DecoderLayout;
import dev.accelbridge.core.Generation;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.suites.audio.LogMel;
import dev.accelbridge.suites.audio.Waveforms;
import dev.accelbridge.suites.audio.WhisperDecoderModel;
import dev.accelbridge.suites.audio.WhisperEncoderModel;
import dev.accelbridge.suites.multimodal.ClipModel;
import dev.accelbridge.suites.ops.OpSuite;
import dev.accelbridge.suites.text.BertModel;
import dev.accelbridge.suites.text.WordPieceTokenizer;
import dev.accelbridge.suites.vision.ConvNetModel;
import dev.accelbridge.suites.vision.Images;
import dev.accelbridge.suites.vision.VitModel;

import java.util.List;

/** The models of each suite at each size, and their input generators. */
final class SuiteDefinitions {
    /**
     * Sentences fed to the text suite, one per batch item (a batch of 1 takes the first); their lengths differ so
     * padding and the attention mask matter.
     */
    static final List<String> SENTENCES = List.of(
            "The quick brown fox jumps over the lazy dog.",
            "Accelbridge runs the same ONNX model in every browser and checks the outputs!",
            "Tokenizers split unrecognized words into smaller pieces.",
            "Batch size four holds four different sentences.");

    /** Captions the multimodal suite ranks for each image: one that fits the test pattern, two that do not. */
    static final List<String> CAPTIONS = List.of(
            "A test pattern of coloured bars and circles.",
            "A dog asleep on the sofa.",
            "The sound of a chirp and two tones.");

    private SuiteDefinitions() {
    }

    static List<SuiteModel> models(ModelFamily family, ModelSize size) {
        return switch (family) {
            case TEXT -> List.of(text(size));
            case VISION -> List.of(vision(size));
            case AUDIO -> audio(size);
            case TEXT_GENERATION -> GenerationSuite.models(size);
            case MULTIMODAL -> multimodal(size);
            case OPS -> ops();
            case OTHER -> List.of();
        };
    }

    /** The op suite: one model per case of {@link OpSuite}, the same at every size (an op's variant is its size). */
    private static List<SuiteModel> ops() {
        return OpSuite.models().stream().map(m -> new SuiteModel(ModelFamily.OPS, m.name(), m.summary(), m.builder()::apply,
                "generated-per-op", m.inputs())).toList();
    }

    private static SuiteModel text(ModelSize size) {
        WordPieceTokenizer tok = WordPieceTokenizer.builtin();
        boolean small = size == ModelSize.SMALL;
        int seq = small ? 24 : 128;
        BertModel.Config c = switch (size) {
            case SMALL -> new BertModel.Config(tok.vocabSize(), 64, 2, 4, 256, 64);
            case LARGE -> new BertModel.Config(tok.vocabSize(), 768, 12, 12, 3072, 512);
            case REAL -> BertModel.Config.bertBase(); // the tokenizer's ids are the first rows of its 30,522
        };
        String name = switch (size) {
            case SMALL -> "bert-mini";
            case LARGE -> "bert-base";
            case REAL -> "bert-base-110m";
        };
        int batch = 1; // FLOPs are documented per item
        return new SuiteModel(ModelFamily.TEXT, name,
                "BERT-style encoder, " + c.layers() + " layers, hidden " + c.hidden() + ", " + c.heads() + " heads, WordPiece vocab " + c.vocabSize(),
                seed -> BertModel.build(name, c, seed, batch, seq),
                "sentences",
                () -> {
                    WordPieceTokenizer.Batch b = tok.encode(SENTENCES, seq);
                    long[] shape = {b.batch(), b.length()};
                    return List.of(NamedTensor.ofLongs("input_ids", shape, b.inputIds()),
                            NamedTensor.ofLongs("attention_mask", shape, b.attentionMask()));
                });
    }

    private static SuiteModel vision(ModelSize size) {
        if (size == ModelSize.REAL) {
            return vit();
        }
        boolean small = size == ModelSize.SMALL;
        ConvNetModel.Config c = small
                ? new ConvNetModel.Config(64, new int[] {16, 32, 64}, 10)
                : new ConvNetModel.Config(224, new int[] {32, 64, 128, 256}, 1000);
        String name = small ? "convnet-small" : "convnet-large";
        int px = c.imageSize();
        return new SuiteModel(ModelFamily.VISION, name,
                "Conv/BatchNorm/Relu/MaxPool stages " + java.util.Arrays.toString(c.channels()) + " + GAP + Gemm head, "
                        + px + "x" + px + " RGB, " + c.classes() + " classes",
                seed -> ConvNetModel.build(name, c, seed),
                "generated-image",
                // two items: the test pattern and its mirror image
                () -> List.of(NamedTensor.ofFloats("pixel_values", new long[] {2, 3, px, px}, Images.patternAndMirror(px))));
    }

    /**
     * The width sweep ({@link dev.accelbridge.core.WidthSweep}): the BERT layout at each width, 64-wide heads, a feed-forward
     * four times as wide, on the text suite's sentences at its sequence; the same at every size.
     */
    static List<SuiteModel> sweep() {
        WordPieceTokenizer tok = WordPieceTokenizer.builtin();
        int seq = dev.accelbridge.core.WidthSweep.SEQUENCE;
        return dev.accelbridge.core.WidthSweep.WIDTHS.stream().map(w -> {
            BertModel.Config c = new BertModel.Config(tok.vocabSize(), w, dev.accelbridge.core.WidthSweep.LAYERS, Math.max(1, w / 64),
                    4 * w, 512);
            String name = dev.accelbridge.core.WidthSweep.name(w);
            return new SuiteModel(ModelFamily.TEXT, name, "the width sweep's BERT-style encoder at hidden " + w + ": " + c.layers()
                    + " layers, " + c.heads() + " heads, feed-forward " + c.intermediate() + ", sequence " + seq,
                    seed -> BertModel.build(name, c, seed, 1, seq), "sentences", () -> {
                        WordPieceTokenizer.Batch b = tok.encode(SENTENCES, seq);
                        long[] shape = {b.batch(), b.length()};
                        return List.of(NamedTensor.ofLongs("input_ids", shape, b.inputIds()),
                                NamedTensor.ofLongs("attention_mask", shape, b.attentionMask()));
                    });
        }).toList();
    }

    /** ViT-B/16 as published (86,567,656 parameters), on two 224² images: the test pattern and its mirror. */
    private static SuiteModel vit() {
        VitModel.Config c = VitModel.Config.base16();
        String name = "vit-b16-86m";
        int px = c.imageSize();
        return new SuiteModel(ModelFamily.VISION, name, "ViT-B/16 (google/vit-base-patch16-224's configuration, seeded weights): "
                + c.layers() + " pre-LN layers, width " + c.hidden() + ", " + c.heads() + " heads, " + px + "² in patches of " + c.patch()
                + ", " + c.classes() + " classes",
                seed -> VitModel.build(name, c, seed), "generated-image",
                () -> List.of(NamedTensor.ofFloats("pixel_values", new long[] {2, 3, px, px}, Images.patternAndMirror(px))));
    }

    /**
     * The audio suite: the Whisper-style encoder alone (a batch of two clips), and speech-to-text: that encoder and a merged
     * decoder, a generation of greedy tokens after Whisper's task tokens, on the clip's log-mel features.
     */
    private static List<SuiteModel> audio(ModelSize size) {
        SuiteModel encoder = encoder(size);
        boolean small = size == ModelSize.SMALL;
        WhisperDecoderModel.Config c = small ? new WhisperDecoderModel.Config(64, 2, 4, 64) : new WhisperDecoderModel.Config(512, 6, 8, 448);
        String name = small ? "whisper-mini" : "whisper-base";
        int newTokens = small ? 12 : 32;
        double seconds = small ? 1.0 : 30.0;
        int frames = LogMel.frames((int) (seconds * LogMel.SAMPLE_RATE));
        java.util.function.Supplier<List<NamedTensor>> inputs = () -> List.of(
                NamedTensor.ofFloats("input_features", new long[] {1, LogMel.N_MELS, frames}, LogMel.ofClip(frames)),
                NamedTensor.ofLongs("input_ids", new long[] {1, WhisperDecoderModel.PROMPT.length}, WhisperDecoderModel.PROMPT));
        SuiteModel stt = new SuiteModel(ModelFamily.AUDIO, name, "Whisper-style speech-to-text: " + encoder.name() + " and a merged decoder "
                + "(use_cache_branch If; self and cross KV caches), " + c.layers() + " layers, d_model " + c.dModel() + ", " + c.heads()
                + " heads, " + WhisperDecoderModel.TOKENS.size() + " tokens; greedy " + newTokens + " tokens after the 4 task tokens, on "
                + (int) seconds + " s of audio",
                seed -> WhisperDecoderModel.build(name, c, seed), "chirp-tones-transcribed", inputs,
                spec -> List.of(ModelCase.generating(spec, "chirp-tones-transcribed", inputs.get(),
                        Generation.of(newTokens, DecoderLayout.of(spec)))), encoder);
        return List.of(encoder, stt);
    }

    private static SuiteModel encoder(ModelSize size) {
        boolean small = size == ModelSize.SMALL;
        double seconds = small ? 1.0 : 30.0;
        WhisperEncoderModel.Config c = small
                ? new WhisperEncoderModel.Config(LogMel.frames((int) (seconds * LogMel.SAMPLE_RATE)), 64, 2, 4)
                : new WhisperEncoderModel.Config(LogMel.frames((int) (seconds * LogMel.SAMPLE_RATE)), 512, 6, 8);
        String name = small ? "whisper-enc-mini" : "whisper-enc-base";
        return new SuiteModel(ModelFamily.AUDIO, name,
                "Whisper-style encoder, 2 Conv1d + " + c.layers() + " pre-LN layers, d_model " + c.dModel() + ", "
                        + c.heads() + " heads, on " + (int) seconds + " s of 16 kHz audio as 80-bin log-mel",
                seed -> WhisperEncoderModel.build(name, c, seed),
                "chirp-tones",
                () -> {
                    // two items: the clip, and the clip played backwards
                    float[] wave = Waveforms.chirpAndTones(seconds);
                    float[] back = new float[wave.length];
                    for (int i = 0; i < wave.length; i++) {
                        back[i] = wave[wave.length - 1 - i];
                    }
                    float[] a = LogMel.flatten(LogMel.compute(wave));
                    float[] b = LogMel.flatten(LogMel.compute(back));
                    float[] both = new float[a.length * 2];
                    System.arraycopy(a, 0, both, 0, a.length);
                    System.arraycopy(b, 0, both, a.length, b.length);
                    return List.of(NamedTensor.ofFloats("input_features", new long[] {2, LogMel.N_MELS, a.length / LogMel.N_MELS},
                            both));
                });
    }

    /**
     * The multimodal suite: a CLIP-style pair judged by its similarity matrix (two images, the test pattern and its mirror,
     * against three captions), and each tower on its own with the same weights and inputs, so each tower's time stands
     * beside the pair's.
     */
    /** Whether a multimodal model is one tower alone ({@code -vision}, {@code -text}). */
    static boolean isTower(String name) {
        return name.endsWith("-vision") || name.endsWith("-text");
    }

    private static List<SuiteModel> multimodal(ModelSize size) {
        WordPieceTokenizer tok = WordPieceTokenizer.builtin();
        boolean small = size == ModelSize.SMALL;
        ClipModel.Config c = small
                ? new ClipModel.Config(32, 8, 64, 2, 4, 64, 2, 4, tok.vocabSize(), 32, 32)
                : new ClipModel.Config(224, 32, 768, 12, 12, 512, 12, 8, tok.vocabSize(), 77, 512);
        int seq = small ? 16 : 77;
        int px = c.imageSize();
        String base = small ? "clip-mini" : "clip-base";
        java.util.function.Supplier<NamedTensor> pixels = () -> NamedTensor.ofFloats("pixel_values", new long[] {2, 3, px, px},
                Images.patternAndMirror(px));
        java.util.function.Supplier<List<NamedTensor>> captions = () -> {
            WordPieceTokenizer.Batch b = tok.encode(CAPTIONS, seq);
            long[] shape = {b.batch(), b.length()};
            return List.of(NamedTensor.ofLongs("input_ids", shape, b.inputIds()), NamedTensor.ofLongs("attention_mask", shape, b.attentionMask()));
        };
        String towers = "vision ViT " + px + "px/" + c.patch() + ", " + c.visionLayers() + " pre-LN layers, width " + c.visionWidth()
                + "; text " + c.textLayers() + " causal layers, width " + c.textWidth() + "; embeddings " + c.embed();
        return List.of(
                new SuiteModel(ModelFamily.MULTIMODAL, base, "CLIP-style two towers and the image-text similarity matrix: " + towers,
                        seed -> ClipModel.build(base, c, seed, ClipModel.Part.PAIR, 2, CAPTIONS.size(), seq), "images-and-captions",
                        () -> java.util.stream.Stream.concat(java.util.stream.Stream.of(pixels.get()), captions.get().stream()).toList()),
                new SuiteModel(ModelFamily.MULTIMODAL, base + "-vision", "the image tower of " + base + " alone (the same weights)",
                        seed -> ClipModel.build(base + "-vision", c, seed, ClipModel.Part.VISION, 2, CAPTIONS.size(), seq), "generated-image",
                        () -> List.of(pixels.get())),
                new SuiteModel(ModelFamily.MULTIMODAL, base + "-text", "the text tower of " + base + " alone (the same weights)",
                        seed -> ClipModel.build(base + "-text", c, seed, ClipModel.Part.TEXT, 2, CAPTIONS.size(), seq), "captions",
                        captions));
    }
}
