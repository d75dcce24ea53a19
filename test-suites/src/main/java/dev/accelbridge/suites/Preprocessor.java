package dev.accelbridge.suites;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.TensorSpec;
import dev.accelbridge.suites.audio.LogMel;
import dev.accelbridge.suites.audio.Waveforms;
import dev.accelbridge.suites.onnx.OnnxTensors;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ValueInfoProto;
import dev.accelbridge.suites.vision.Images;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * Feeds a Hugging Face Optimum export of a vision or audio model the way its own {@code preprocessor_config.json}
 * says: {@code pixel_values} is the test pattern at the processor's size, rescaled and normalised with its mean and
 * std; {@code input_features} is the log-mel spectrogram (80 bins, 25 ms / 10 ms, as Whisper's feature extractor) of a
 * chirp-and-tones signal over the processor's {@code nb_max_frames}; {@code input_values} is that signal as a raw
 * waveform at the processor's sampling rate (1 s unless {@code --dim} or the model fixes the length), normalised
 * to zero mean and unit variance when the processor does. The dimensions these fix are shared with the model's
 * other inputs (an {@code attention_mask} of the same length).
 */
final class Preprocessor {
    static final String FILE = "preprocessor_config.json";
    /** The widest and tallest image made: above every published vision model's input (SAM's 1024, high-res ViTs' 1536). */
    static final long MAX_SIDE = 4096;
    /** The most log-mel frames made: ten of Whisper's 30 s windows (3,000 frames each). */
    static final long MAX_FRAMES = 30_000;
    /** The highest sampling rate taken: 384 kHz, the top of studio audio. */
    static final long MAX_RATE = 384_000;
    /** The longest waveform made: a minute at the highest rate. */
    static final long MAX_SAMPLES = 60 * MAX_RATE;

    private Preprocessor() {
    }

    /** The preprocessor config beside a model (its folder, or the folder above Optimum's onnx/), if any. */
    static Optional<JsonNode> find(Path dir) {
        for (Path d : new Path[]{dir, dir.getParent()}) {
            if (d != null && Files.isRegularFile(d.resolve(FILE))) {
                try {
                    return Optional.of(new ObjectMapper().readTree(d.resolve(FILE).toFile()));
                } catch (IOException e) {
                    throw new SuiteException.InvalidTestDataException(d.resolve(FILE) + " is not valid JSON: " + e.getMessage(),
                            "re-save it with the processor's save_pretrained()", e);
                }
            }
        }
        return Optional.empty();
    }

    /** Feeds {@code spec} by its processor config; {@code feed}'s own dimensions and inputs still win. */
    static InputFeeder.Fed feed(ModelSpec spec, ModelProto proto, JsonNode cfg, FeedOptions feed) {
        Map<String, ValueInfoProto> infos = new LinkedHashMap<>();
        OnnxModels.graphInputs(proto).forEach(v -> infos.put(v.getName(), v));
        Map<String, Long> dims = new LinkedHashMap<>();
        Map<String, NamedTensor> made = new LinkedHashMap<>();
        String set = null;
        for (TensorSpec s : spec.inputs()) {
            if (s.dtype() != DType.FLOAT32 || feed.inputs().containsKey(s.name())) {
                continue;
            }
            String[] names = infos.containsKey(s.name()) ? OnnxTensors.dimParams(infos.get(s.name())) : new String[s.shape().length];
            if (s.name().equals("pixel_values") && s.shape().length == 4) {
                long h = dim(spec, s, names, 2, feed, "size (height)", size(cfg, "height"), MAX_SIDE);
                long w = dim(spec, s, names, 3, feed, "size (width)", size(cfg, "width"), MAX_SIDE);
                made.put(s.name(), NamedTensor.ofFloats(s.name(), new long[]{1, 3, h, w}, image(cfg, (int) w, (int) h)));
                put(dims, names, new long[]{1, 3, h, w});
                set = "preprocessed-image";
            } else if (s.name().equals("input_features") && s.shape().length == 3) {
                int bins = cfg.path("feature_size").asInt(LogMel.N_MELS);
                if (bins != LogMel.N_MELS) {
                    throw new SuiteException.UnfeedableInputException(spec.name() + "'s feature extractor wants " + bins
                            + " mel bins; Accelbridge's log-mel front end makes " + LogMel.N_MELS,
                            "give input_features as a file (--input input_features=features.npy)");
                }
                long frames = dim(spec, s, names, 2, feed, "nb_max_frames", cfg.path("nb_max_frames").asLong(3000), MAX_FRAMES);
                made.put(s.name(), NamedTensor.ofFloats(s.name(), new long[]{1, LogMel.N_MELS, frames}, LogMel.ofClip((int) frames)));
                put(dims, names, new long[]{1, LogMel.N_MELS, frames});
                set = "preprocessed-audio";
            } else if (s.name().equals("input_values") && s.shape().length == 2) {
                long rate = cfg.path("sampling_rate").asLong(16000);
                if (rate < 1 || rate > MAX_RATE) {
                    throw outside(spec, FILE + "'s sampling_rate", rate, MAX_RATE);
                }
                long samples = dim(spec, s, names, 1, feed, "sampling_rate", rate, MAX_SAMPLES);
                float[] wave = Waveforms.chirpAndTones(samples / (double) rate);
                float[] v = java.util.Arrays.copyOf(wave, (int) samples);
                if (cfg.path("do_normalize").asBoolean(true)) {
                    normalize(v);
                }
                made.put(s.name(), NamedTensor.ofFloats(s.name(), new long[]{1, samples}, v));
                put(dims, names, new long[]{1, samples});
                set = "preprocessed-audio";
            }
        }
        if (made.isEmpty()) {
            return InputFeeder.feed(spec, proto, feed);
        }
        Map<String, Long> all = new LinkedHashMap<>(dims);
        all.putAll(feed.dims());
        FeedOptions withDims = new FeedOptions(all, feed.shapes(), feed.inputs(), feed.rangeLo(), feed.rangeHi(), feed.tolerance(),
                feed.baseDir());
        InputFeeder.Fed fed = InputFeeder.feed(spec, proto, withDims);
        return new InputFeeder.Fed(fed.inputs().stream().map(t -> made.getOrDefault(t.name(), t)).toList(), set, fed.freeDims());
    }

    /**
     * A dimension of an input made here: the model's own, else the one given, else the config's {@code key}; held to
     * 1..{@code max} before anything is allocated, naming where it came from.
     */
    private static long dim(ModelSpec spec, TensorSpec s, String[] names, int i, FeedOptions feed, String key, long fromConfig,
                            long max) {
        long v;
        String from;
        if (s.shape()[i] > 0) {
            v = s.shape()[i];
            from = "the model's " + s.name() + " dimension " + i;
        } else if (names[i] != null && feed.dims().containsKey(names[i])) {
            v = feed.dims().get(names[i]);
            from = "--dim " + names[i];
        } else {
            v = fromConfig;
            from = FILE + "'s " + key;
        }
        if (v < 1 || v > max) {
            throw outside(spec, from, v, max);
        }
        return v;
    }

    private static SuiteException outside(ModelSpec spec, String from, long v, long max) {
        return new SuiteException.UnfeedableInputException(spec.name() + ": " + from + " is " + v + ", outside the 1.." + max
                + " Accelbridge makes inputs for", "correct " + FILE + ", or give the input as a file (--input NAME=FILE.npy)");
    }

    private static void put(Map<String, Long> dims, String[] names, long[] shape) {
        for (int i = 0; i < names.length && i < shape.length; i++) {
            if (names[i] != null && !names[i].isEmpty()) {
                dims.putIfAbsent(names[i], shape[i]);
            }
        }
    }

    /** size.height / size.width, else crop_size, else size.shortest_edge, else a plain size number, else 224. */
    private static long size(JsonNode cfg, String which) {
        for (String k : new String[]{"crop_size", "size"}) {
            JsonNode n = cfg.path(k);
            if (n.has(which)) {
                return n.get(which).asLong();
            }
        }
        if (cfg.path("size").has("shortest_edge")) {
            return cfg.path("size").get("shortest_edge").asLong();
        }
        return cfg.path("size").isNumber() ? cfg.path("size").asLong() : 224;
    }

    private static float[] image(JsonNode cfg, int w, int h) {
        int over = (long) w * h <= 1024 * 1024 ? 4 : 1; // drawn larger and scaled down, while that stays small
        float[][][] img = Images.resizeBilinear(Images.testPattern(over * w, over * h), w, h);
        float[] mean = floats(cfg.path("image_mean"), Images.MEAN);
        float[] std = floats(cfg.path("image_std"), Images.STD);
        double rescale = cfg.path("do_rescale").asBoolean(true) ? cfg.path("rescale_factor").asDouble(1 / 255.0) : 1;
        boolean normalize = cfg.path("do_normalize").asBoolean(true);
        float[] out = new float[3 * h * w];
        for (int c = 0; c < 3; c++) {
            for (int y = 0; y < h; y++) {
                for (int x = 0; x < w; x++) {
                    double v = img[c][y][x] * rescale;
                    out[(c * h + y) * w + x] = (float) (normalize ? (v - mean[c]) / std[c] : v);
                }
            }
        }
        return out;
    }

    private static float[] floats(JsonNode n, float[] dflt) {
        if (!n.isArray() || n.size() != 3) {
            return dflt;
        }
        return new float[]{(float) n.get(0).asDouble(), (float) n.get(1).asDouble(), (float) n.get(2).asDouble()};
    }

    private static void normalize(float[] v) {
        double mean = 0;
        for (float x : v) {
            mean += x;
        }
        mean /= v.length;
        double var = 0;
        for (float x : v) {
            var += (x - mean) * (x - mean);
        }
        double sd = Math.sqrt(var / v.length + 1e-7);
        for (int i = 0; i < v.length; i++) {
            v[i] = (float) ((v[i] - mean) / sd);
        }
    }
}
