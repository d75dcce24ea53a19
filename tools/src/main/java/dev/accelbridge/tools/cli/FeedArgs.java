package dev.accelbridge.tools.cli;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.suites.FeedOptions;
import dev.accelbridge.suites.GenerateOptions;
import picocli.CommandLine.Option;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How models are fed, as {@code run} options ({@code --dim}, {@code --shape}, {@code --input}, {@code --input-range},
 * {@code --tolerance}): a picocli mixin that maps them onto {@link FeedOptions} and refuses malformed values.
 */
public final class FeedArgs {
    @Option(names = "--dim", paramLabel = "SYMBOL=VALUE",
            description = "A free dimension by its symbolic name, e.g. --dim sequence=16 (repeatable): set in ONNX Runtime natively and in onnxruntime-web.")
    List<String> dims = new ArrayList<>();

    @Option(names = "--shape", paramLabel = "INPUT=D0xD1x...", description = "A concrete shape for one input, e.g. --shape x=1x3x224x224 (repeatable).")
    List<String> shapes = new ArrayList<>();

    @Option(names = "--input", paramLabel = "NAME=VALUE|PATH",
            description = "An input's data: a value for a scalar (--input sr=16000) or a .npy / ONNX TensorProto .pb file (repeatable).")
    List<String> inputs = new ArrayList<>();

    @Option(names = "--input-range", paramLabel = "LO,HI",
            description = "Generated float inputs uniform in [LO, HI) and ids in [LO, HI) (default: standard normal; ids below the embedding size).")
    String inputRange;

    @Option(names = "--tolerance", paramLabel = "ABS", description = "Parity tolerance (absolute) for every model; overrides a model folder's accelbridge.json.")
    Double tolerance;

    @Option(names = "--generate", description = "Run every --model as a decoder generating tokens (a model with past_key_values.N.key|value "
            + "inputs is one without it); a model that cannot be fed as one says what it lacks.")
    boolean generate;

    @Option(names = "--prompt-tokens", paramLabel = "N", description = "A generation's prompt length (default 8; the text-generation suite's own at --size large).")
    Integer promptTokens;

    @Option(names = "--new-tokens", paramLabel = "N", description = "The tokens a generation makes after its prompt (default 32).")
    Integer newTokens;

    /** --dim, --shape, --input, --input-range, --tolerance, --generate, --prompt/new-tokens as {@link FeedOptions}; malformed values are bad input. */
    public FeedOptions feed() {
        Map<String, Long> d = new LinkedHashMap<>();
        for (String x : dims) {
            String[] kv = pair(x, "--dim", "SYMBOL=VALUE, e.g. --dim sequence=16");
            try {
                long v = Long.parseLong(kv[1].trim());
                if (v < 1) {
                    throw new NumberFormatException();
                }
                d.put(kv[0], v);
            } catch (NumberFormatException e) {
                throw new AccelbridgeException("--dim " + x + ": the value must be a whole number >= 1", "e.g. --dim sequence=16");
            }
        }
        Map<String, long[]> s = new LinkedHashMap<>();
        for (String x : shapes) {
            String[] kv = pair(x, "--shape", "INPUT=D0xD1x..., e.g. --shape x=1x3x224x224");
            s.put(kv[0], FeedOptions.parseShape(kv[1], "--shape " + kv[0]));
        }
        Map<String, String> in = new LinkedHashMap<>();
        for (String x : inputs) {
            String[] kv = pair(x, "--input", "NAME=VALUE or NAME=PATH, e.g. --input sr=16000");
            if (!FeedOptions.isNumber(kv[1]) && !Files.isRegularFile(Path.of(kv[1]))) {
                throw new AccelbridgeException("--input " + x + ": " + kv[1] + " is neither a number nor an existing file",
                        "give a value for a scalar or the path of a .npy / .pb file");
            }
            in.put(kv[0], kv[1]);
        }
        Double lo = null;
        Double hi = null;
        if (inputRange != null) {
            String[] r = inputRange.split(",");
            try {
                lo = Double.parseDouble(r[0].trim());
                hi = Double.parseDouble(r[1].trim());
            } catch (RuntimeException e) {
                throw new AccelbridgeException("--input-range " + inputRange + " is not LO,HI", "e.g. --input-range -1,1");
            }
        }
        if (tolerance != null && !(tolerance > 0)) {
            throw new AccelbridgeException("--tolerance must be positive, got " + tolerance, "e.g. --tolerance 1e-3");
        }
        return new FeedOptions(d, s, in, lo, hi, tolerance, Path.of("").toAbsolutePath(),
                new GenerateOptions(generate, promptTokens, newTokens));
    }

    private static String[] pair(String x, String flag, String form) {
        int eq = x.indexOf('=');
        if (eq <= 0) {
            throw new AccelbridgeException(flag + " " + x + " is not of the form " + form.split(",")[0], form);
        }
        return new String[] {x.substring(0, eq).trim(), x.substring(eq + 1)};
    }
}
