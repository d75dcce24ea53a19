package dev.accelbridge.suites;

import dev.accelbridge.core.PublicApi;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * How a user's model is fed, in the conventions of {@code onnxruntime_perf_test -f} and {@code trtexec --shapes}:
 * free-dimension values by symbolic name ({@code --dim batch=1}), a concrete shape per input
 * ({@code --shape x=1x3x224x224}), and given inputs ({@code --input sr=16000} for a scalar,
 * {@code --input state=state.npy} or {@code .pb} for a tensor). An {@code accelbridge.json} beside a model holds the
 * same (and a tolerance), so a folder describes itself; the command line wins over the file.
 *
 * @param dims      symbolic dimension → value
 * @param shapes    input name → concrete shape (rank 0 for a scalar)
 * @param inputs    input name → a scalar value, or a path to a {@code .npy} / ONNX {@code TensorProto} {@code .pb}
 * @param rangeLo   lower bound of generated float inputs (with {@code rangeHi}); null: standard normal
 * @param rangeHi   upper bound of generated float inputs
 * @param tolerance the parity tolerance for this model, when given
 * @param baseDir   where relative input paths are resolved
 * @param generate  how decoders are run as generations ({@code --generate}, {@code --prompt-tokens}, {@code --new-tokens})
 */
@PublicApi
public record FeedOptions(Map<String, Long> dims, Map<String, long[]> shapes, Map<String, String> inputs, Double rangeLo,
                          Double rangeHi, Double tolerance, Path baseDir, GenerateOptions generate) {
    /** The name of a model folder's own feed file. */
    public static final String FILE = "accelbridge.json";

    public FeedOptions {
        dims = dims == null ? Map.of() : Map.copyOf(dims);
        shapes = shapes == null ? Map.of() : Map.copyOf(shapes);
        inputs = inputs == null ? Map.of() : Map.copyOf(inputs);
        baseDir = baseDir == null ? Path.of(".") : baseDir;
        generate = generate == null ? GenerateOptions.DEFAULT : generate;
        if ((rangeLo == null) != (rangeHi == null) || (rangeLo != null && !(rangeLo < rangeHi))) {
            throw new SuiteException("An input range needs a low bound below its high bound, got " + rangeLo + ".." + rangeHi,
                    "give --input-range LO,HI with LO < HI, e.g. --input-range -1,1");
        }
    }

    /** Options without generation lengths. */
    public FeedOptions(Map<String, Long> dims, Map<String, long[]> shapes, Map<String, String> inputs, Double rangeLo,
                       Double rangeHi, Double tolerance, Path baseDir) {
        this(dims, shapes, inputs, rangeLo, rangeHi, tolerance, baseDir, GenerateOptions.DEFAULT);
    }

    /** These options with {@code g} for decoders. */
    public FeedOptions withGenerate(GenerateOptions g) {
        return new FeedOptions(dims, shapes, inputs, rangeLo, rangeHi, tolerance, baseDir, g);
    }

    /** Nothing given: every default applies. */
    public static FeedOptions none() {
        return new FeedOptions(Map.of(), Map.of(), Map.of(), null, null, null, Path.of("."));
    }

    /** The same options judged by {@code tolerance} (absolute; null: none given). */
    public FeedOptions withTolerance(Double tolerance) {
        return new FeedOptions(dims, shapes, inputs, rangeLo, rangeHi, tolerance, baseDir, generate);
    }

    /** True when nothing was given. */
    @com.fasterxml.jackson.annotation.JsonIgnore
    public boolean isEmpty() {
        return dims.isEmpty() && shapes.isEmpty() && inputs.isEmpty() && rangeLo == null && tolerance == null && generate.isEmpty();
    }

    /** These options with {@code over}'s entries winning (the command line over a folder's file). */
    public FeedOptions overriddenBy(FeedOptions over) {
        Map<String, Long> d = new LinkedHashMap<>(dims);
        d.putAll(over.dims);
        Map<String, long[]> s = new LinkedHashMap<>(shapes);
        s.putAll(over.shapes);
        Map<String, String> i = new LinkedHashMap<>();
        inputs.forEach((k, v) -> i.put(k, resolved(baseDir, v)));
        over.inputs.forEach((k, v) -> i.put(k, resolved(over.baseDir, v)));
        return new FeedOptions(d, s, i, over.rangeLo != null ? over.rangeLo : rangeLo, over.rangeLo != null ? over.rangeHi : rangeHi,
                over.tolerance != null ? over.tolerance : tolerance, over.baseDir, generate.overriddenBy(over.generate));
    }

    private static String resolved(Path base, String v) {
        if (isNumber(v)) {
            return v;
        }
        Path p = Path.of(v);
        return p.isAbsolute() ? v : base.resolve(p).toAbsolutePath().normalize().toString();
    }

    /** True when {@code v} is a scalar value rather than a path. */
    public static boolean isNumber(String v) {
        String t = v.trim().toLowerCase(Locale.ROOT);
        if (t.equals("true") || t.equals("false") || t.equals("nan") || t.equals("inf") || t.equals("-inf")) {
            return true;
        }
        try {
            Double.parseDouble(t);
            return true;
        } catch (NumberFormatException e) {
            return false;
        }
    }

    /** Parses {@code 1x3x224x224} (an empty text is a scalar's rank-0 shape). */
    public static long[] parseShape(String text, String what) {
        String t = text.trim();
        if (t.isEmpty()) {
            return new long[0];
        }
        try {
            long[] s = Arrays.stream(t.split("[xX,]")).map(String::trim).mapToLong(Long::parseLong).toArray();
            for (long d : s) {
                if (d < 0) {
                    throw new NumberFormatException("negative");
                }
            }
            return s;
        } catch (NumberFormatException e) {
            throw new SuiteException("The shape '" + text + "' of " + what + " is not of the form D0xD1x... with whole numbers",
                    "e.g. --shape x=1x3x224x224");
        }
    }

    /** The {@code accelbridge.json} of a folder, when there is one. */
    public static Optional<FeedOptions> ofFolder(Path dir) {
        Path f = dir.resolve(FILE);
        if (!Files.isRegularFile(f)) {
            return Optional.empty();
        }
        JsonNode n;
        try {
            n = new ObjectMapper().readTree(f.toFile());
        } catch (IOException e) {
            throw new SuiteException.InvalidTestDataException(f + " is not valid JSON: " + e.getMessage(),
                    "fix the file: {\"dims\": {\"batch\": 1}, \"shapes\": {\"x\": \"1x3x64x64\"}, \"inputs\": {\"sr\": 16000}, \"tolerance\": 1e-3}", e);
        }
        Map<String, Long> dims = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = n.path("dims").fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            if (!e.getValue().canConvertToLong() || e.getValue().asLong() < 1) {
                throw new SuiteException.InvalidTestDataException(f + ": dims." + e.getKey() + " must be a whole number >= 1",
                        "e.g. \"dims\": {\"" + e.getKey() + "\": 1}", null);
            }
            dims.put(e.getKey(), e.getValue().asLong());
        }
        Map<String, long[]> shapes = new LinkedHashMap<>();
        n.path("shapes").fields().forEachRemaining(e -> shapes.put(e.getKey(), parseShape(e.getValue().asText(), f + " shapes." + e.getKey())));
        Map<String, String> inputs = new LinkedHashMap<>();
        n.path("inputs").fields().forEachRemaining(e -> inputs.put(e.getKey(), e.getValue().asText()));
        for (Map.Entry<String, String> e : inputs.entrySet()) {
            if (!isNumber(e.getValue())) {
                ModelFiles.inside(dir, e.getValue(), "input file"); // the folder's own file names stay in the folder
            }
        }
        Double tol = n.hasNonNull("tolerance") ? n.get("tolerance").asDouble() : null;
        Double lo = null;
        Double hi = null;
        if (n.path("inputRange").isArray() && n.path("inputRange").size() == 2) {
            lo = n.path("inputRange").get(0).asDouble();
            hi = n.path("inputRange").get(1).asDouble();
        }
        return Optional.of(new FeedOptions(dims, shapes, inputs, lo, hi, tol, dir.toAbsolutePath()));
    }
}
