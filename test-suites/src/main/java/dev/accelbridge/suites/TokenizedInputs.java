package dev.accelbridge.suites;

import ai.djl.huggingface.tokenizers.Encoding;
import ai.djl.huggingface.tokenizers.HuggingFaceTokenizer;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.DjlDefaults;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.TensorSpec;
import dev.accelbridge.suites.onnx.OnnxTensors;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The inputs of a Hugging Face–style text model (a Hugging Face Optimum export: {@code model.onnx} beside its
 * {@code tokenizer.json}) made from real text: the suite's sentences tokenized by the model's own tokenizer (DJL's
 * Hugging Face tokenizers) into {@code input_ids}, {@code attention_mask}, {@code token_type_ids} (and
 * {@code position_ids}), a batch of sentences of different lengths padded as the tokenizer pads them.
 */
final class TokenizedInputs {
    private TokenizedInputs() {
    }

    /**
     * The suite's sentences tokenized by the model's own tokenizer: as many as the batch dimension holds (fixed, or given by
     * {@code --dim}; else all of them), padded to the longest as tokenizers pad a batch, or to the sequence length when it
     * is fixed or given.
     */
    static List<NamedTensor> of(ModelSpec spec, ModelProto proto, Path tokenizerJson, java.util.Map<String, Long> given) {
        TensorSpec idsSpec = spec.inputs().stream().filter(s -> s.name().equals("input_ids")).findFirst().orElseThrow();
        long[] dims = idsSpec.shape().clone();
        String[] names = OnnxModels.graphInputs(proto).stream().filter(v -> v.getName().equals("input_ids")).findFirst()
                .map(OnnxTensors::dimParams).orElse(new String[dims.length]);
        for (int i = 0; i < dims.length && i < names.length; i++) {
            if (dims[i] <= 0 && names[i] != null && given.containsKey(names[i])) {
                dims[i] = given.get(names[i]);
            }
        }
        int batch = dims.length > 0 && dims[0] > 0 ? (int) dims[0] : SuiteDefinitions.SENTENCES.size();
        int fixedLength = dims.length > 1 && dims[1] > 0 ? (int) dims[1] : -1;
        int maxLength = fixedLength > 0 ? fixedLength : Math.min(128, maxPositions(tokenizerJson.getParent()));
        List<String> sentences = new ArrayList<>();
        for (int i = 0; i < batch; i++) {
            sentences.add(SuiteDefinitions.SENTENCES.get(i % SuiteDefinitions.SENTENCES.size()));
        }
        TokenizerJson.check(tokenizerJson);
        DjlDefaults.apply(); // the tokenizers' CPU library, on a CUDA host too
        Encoding[] enc;
        try {
            HuggingFaceTokenizer.Builder b = HuggingFaceTokenizer.builder().optTokenizerPath(tokenizerJson)
                    .optMaxLength(maxLength).optTruncation(true);
            b = fixedLength > 0 ? b.optPadToMaxLength() : b.optPadding(true);
            try (HuggingFaceTokenizer tok = b.build()) {
                // one sentence at a time first: the native single encode returns its errors, the batch one aborts on them
                for (String s : new java.util.LinkedHashSet<>(sentences)) {
                    tok.encode(s);
                }
                enc = tok.batchEncode(sentences);
            }
        } catch (IOException | RuntimeException e) {
            throw new SuiteException.InvalidTestDataException("Cannot load the tokenizer " + tokenizerJson + ": " + e.getMessage(),
                    "re-save it with transformers' tokenizer.save_pretrained() (a fast tokenizer's tokenizer.json)", e);
        }
        int len = enc[0].getIds().length;
        List<NamedTensor> out = new ArrayList<>();
        for (TensorSpec s : spec.inputs()) {
            long[] v = new long[batch * len];
            for (int r = 0; r < batch; r++) {
                long[] row = switch (s.name()) {
                    case "input_ids" -> enc[r].getIds();
                    case "attention_mask" -> enc[r].getAttentionMask();
                    case "token_type_ids" -> enc[r].getTypeIds();
                    case "position_ids" -> positions(len);
                    default -> throw new SuiteException.UnfeedableInputException("Graph input '" + s.name() + "' of " + spec.name()
                            + " is not one a tokenizer produces (input_ids, attention_mask, token_type_ids, position_ids)",
                            "give the inputs as ONNX test data (test_data_set_0/input_K.pb)");
                };
                System.arraycopy(row, 0, v, r * len, len);
            }
            out.add(integers(s, new long[] {batch, len}, v));
        }
        return out;
    }

    private static long[] positions(int len) {
        long[] p = new long[len];
        for (int i = 0; i < len; i++) {
            p[i] = i;
        }
        return p;
    }

    private static int maxPositions(Path dir) {
        Path config = dir.resolve("config.json");
        if (Files.isRegularFile(config)) {
            try {
                JsonNode n = new ObjectMapper().readTree(config.toFile()).path("max_position_embeddings");
                if (n.isInt() && n.asInt() > 2) {
                    return n.asInt();
                }
            } catch (IOException e) {
                throw new SuiteException.InvalidTestDataException(config + " is not valid JSON: " + e.getMessage(),
                        "re-save it with config.save_pretrained()", e);
            }
        }
        return 512;
    }

    private static NamedTensor integers(TensorSpec s, long[] shape, long[] v) {
        return switch (s.dtype()) {
            case INT64 -> NamedTensor.ofLongs(s.name(), shape, v);
            case INT32 -> {
                ByteBuffer b = ByteBuffer.allocate(v.length * 4).order(ByteOrder.LITTLE_ENDIAN);
                for (long x : v) {
                    b.putInt((int) x);
                }
                yield new NamedTensor(s.name(), DType.INT32, shape, b.array());
            }
            default -> throw new SuiteException.UnfeedableInputException("Graph input '" + s.name() + "' is "
                    + s.dtype().webName() + ", but token ids need int64 or int32", "give the inputs as ONNX test data");
        };
    }

    // ------------------------------------------------------------------ (c) generated or given inputs
}
