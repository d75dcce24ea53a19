package dev.accelbridge.suites;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.Precision;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;

/**
 * A model folder as transformers.js ships one: the same graph in several dtypes beside each other ({@code onnx/model.onnx},
 * {@code model_fp16.onnx}, {@code model_quantized.onnx}, {@code model_q4.onnx}, ...; an encoder-decoder as
 * {@code encoder_model*.onnx} with {@code decoder_model_merged*.onnx}), each file a {@link Precision} named by its suffix,
 * and its {@code config.json} naming the architecture. A file of the stem whose suffix names no dtype is listed as
 * skipped, with why, never dropped without a word.
 */
final class DtypeFolder {
    /** The single-graph stem. */
    static final String MODEL = "model";
    private static final int MAX_FILES = 64;

    private DtypeFolder() {
    }

    /**
     * One variant: its precision and its file (the decoder's, for an encoder-decoder), and the encoder file it pairs with
     * (null for a single graph).
     */
    record Variant(Precision precision, Path file, Path encoder) {
    }

    /** What a folder ships of one stem: its variants, fp32 first, and the files skipped with why. */
    record Shipped(List<Variant> variants, List<String> skipped) {
        /** Whether the folder holds more than the plain {@code STEM.onnx}: a variant to run or a file to account for. */
        boolean hasVariants() {
            return variants.size() > 1 || !skipped.isEmpty() || variants.stream().anyMatch(v -> v.precision() != Precision.FP32);
        }
    }

    /** The variants of {@code stem} in {@code dir} ({@code STEM.onnx}, {@code STEM_SUFFIX.onnx}). */
    static Shipped of(Path dir, String stem) {
        Pattern p = Pattern.compile(Pattern.quote(stem) + "(_[A-Za-z0-9]+)?\\.onnx");
        List<Variant> variants = new ArrayList<>();
        List<String> skipped = new ArrayList<>();
        for (Path f : files(dir, p)) {
            Matcher m = p.matcher(f.getFileName().toString());
            m.matches();
            String suffix = m.group(1) == null ? "" : m.group(1).toLowerCase(Locale.ROOT);
            Optional<Precision> precision = Precision.ofSuffix(suffix);
            if (precision.isPresent()) {
                variants.add(new Variant(precision.get(), f, null));
            } else {
                skipped.add(f.getFileName() + " in " + dir + " is not run: '" + suffix.substring(1) + "' names no dtype transformers.js "
                        + "ships (" + Arrays.stream(Precision.values()).map(x -> MODEL + x.suffix() + ".onnx").toList()
                        + "); give it with --model FILE to run it on its own");
            }
        }
        variants.sort(Comparator.comparing(Variant::precision));
        return new Shipped(variants, skipped);
    }

    /**
     * An encoder-decoder's variants: one per dtype its merged decoder ships, with the encoder of the same dtype, or the fp32
     * encoder when the folder has none at that dtype (transformers.js takes a dtype per part; the pairing is said in
     * {@code skipped}'s notes).
     */
    static Shipped encoderDecoder(Path dir, String encoderStem, String decoderStem) {
        Shipped decoders = of(dir, decoderStem);
        Shipped encoders = of(dir, encoderStem);
        List<Variant> out = new ArrayList<>();
        List<String> notes = new ArrayList<>(decoders.skipped());
        notes.addAll(encoders.skipped());
        Path fp32Encoder = dir.resolve(encoderStem + ".onnx");
        for (Variant d : decoders.variants()) {
            Optional<Variant> e = encoders.variants().stream().filter(v -> v.precision() == d.precision()).findFirst();
            if (e.isEmpty()) {
                notes.add(d.file().getFileName() + " runs with " + fp32Encoder.getFileName() + ": the folder has no "
                        + encoderStem + d.precision().suffix() + ".onnx");
            }
            out.add(new Variant(d.precision(), d.file(), e.map(Variant::file).orElse(fp32Encoder)));
        }
        for (Variant e : encoders.variants()) {
            if (decoders.variants().stream().noneMatch(d -> d.precision() == e.precision())) {
                notes.add(e.file().getFileName() + " in " + dir + " is not run: the folder has no " + decoderStem + e.precision().suffix()
                        + ".onnx to pair it with");
            }
        }
        return new Shipped(out, notes);
    }

    /** The ops of a graph quantized to 4 bits (8 bits: {@link OnnxModels#QUANTIZED_OPS}). */
    private static final java.util.Set<String> FOUR_BIT = java.util.Set.of("MatMulNBits", "MatMulBnb4", "GatherBlockQuantized");

    /**
     * What is wrong with a file's name, when its graph's ops say another kind of dtype than the suffix names (a
     * {@code model_q4.onnx} without a 4-bit MatMul, a {@code model.onnx} that is quantized): its rows keep the name's dtype,
     * and the run says so rather than let the name pass for the graph.
     */
    static Optional<String> mismatch(Variant v, ModelSpec graph) {
        // a contrib op is listed with its domain ("com.microsoft:MatMulNBits")
        List<String> ops = graph.ops().stream().map(o -> o.substring(o.lastIndexOf(':') + 1)).toList();
        boolean four = ops.stream().anyMatch(FOUR_BIT::contains);
        boolean eight = ops.stream().anyMatch(OnnxModels.QUANTIZED_OPS::contains);
        Precision p = v.precision();
        boolean namedFour = p == Precision.Q4 || p == Precision.Q4F16 || p == Precision.BNB4;
        String has = four ? "4-bit ops" : eight ? "8-bit quantized ops" : "no quantized op";
        boolean agrees = namedFour ? four : p.quantized() ? eight && !four : !four && !eight;
        return agrees ? Optional.empty() : Optional.of(v.file().getFileName() + " is named " + p.id() + " but its graph has " + has
                + ": its rows say " + p.id() + ", as the file is named");
    }

    /** The files of {@code dir} whose names {@code stem} matches, by name, at most {@value #MAX_FILES}. */
    private static List<Path> files(Path dir, Pattern stem) {
        if (!Files.isDirectory(dir)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> l = s.filter(f -> stem.matcher(f.getFileName().toString()).matches() && Files.isRegularFile(f)).sorted()
                    .limit(MAX_FILES + 1L).toList();
            if (l.size() > MAX_FILES) {
                throw new SuiteException("The folder " + dir + " holds more than " + MAX_FILES + " variants of one model",
                        "give one model folder at a time, or the .onnx file itself");
            }
            return l;
        } catch (IOException e) {
            throw new SuiteException("Cannot list " + dir + ": " + e, "check the folder's permissions", e);
        }
    }

    /**
     * The family {@code config.json} names (its {@code architectures}, else its {@code model_type}), in the model folder or
     * its {@code onnx/}; empty when there is none or it names nothing known.
     */
    static Optional<ModelFamily> family(Path folder) {
        for (Path d : List.of(folder, folder.resolve("onnx"))) {
            Path cfg = d.resolve("config.json");
            if (!Files.isRegularFile(cfg)) {
                continue;
            }
            try {
                if (Files.size(cfg) > (4 << 20)) {
                    return Optional.empty(); // no config is that large: not one to read
                }
                JsonNode n = new ObjectMapper().readTree(cfg.toFile());
                return familyOf(n.path("architectures").path(0).asText("") + " " + n.path("model_type").asText(""));
            } catch (IOException e) {
                return Optional.empty(); // unreadable: the inputs decide, as without one
            }
        }
        return Optional.empty();
    }

    /** The family an architecture's name says ({@code BertModel}: text, {@code WhisperForConditionalGeneration}: audio). */
    static Optional<ModelFamily> familyOf(String architecture) {
        String a = architecture.toLowerCase(Locale.ROOT);
        if (a.contains("forcausallm") || a.matches(".*\\b(llama|gpt2|gpt_neox|qwen2|phi3?|mistral|gemma)\\b.*")) {
            return Optional.of(ModelFamily.TEXT_GENERATION);
        }
        if (a.contains("clip") || a.contains("siglip")) {
            return Optional.of(ModelFamily.MULTIMODAL);
        }
        if (a.contains("whisper") || a.contains("wav2vec") || a.contains("hubert") || a.contains("foraudio") || a.contains("ctc")) {
            return Optional.of(ModelFamily.AUDIO);
        }
        if (a.contains("vit") || a.contains("convnext") || a.contains("resnet") || a.contains("forimage") || a.contains("detr")
                || a.contains("forobjectdetection") || a.contains("mobilenet") || a.contains("yolo")) {
            return Optional.of(ModelFamily.VISION);
        }
        if (a.contains("bert") || a.contains("mpnet") || a.contains("roberta") || a.contains("electra") || a.contains("forsequence")
                || a.contains("fortoken") || a.contains("formaskedlm")) {
            return Optional.of(ModelFamily.TEXT);
        }
        return Optional.empty();
    }
}
