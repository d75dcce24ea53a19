package dev.accelbridge.suites;

import dev.accelbridge.core.DType;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.suites.onnx.GraphBuilder;
import dev.accelbridge.suites.onnx.OnnxTensors;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.OperatorSetIdProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TensorShapeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.TypeProto;
import dev.accelbridge.suites.onnx.proto.Onnx.ValueInfoProto;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Small models authored to look like the ones users bring (published OCR, voice-activity and text models): symbolic
 * dimensions beyond the batch, a scalar int64 input, a recurrent state, int64 ids into an embedding, a bool mask, a
 * STRING input, a custom-domain op, a folder whose shipped reference has the wrong size. Test fixtures, written into
 * a folder per model.
 */
public final class WildModels {
    private WildModels() {
    }

    private static Path write(Path dir, String name, ModelProto m) {
        try {
            Path folder = Files.createDirectories(dir.resolve(name));
            Files.write(folder.resolve("model.onnx"), m.toByteArray());
            return folder;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** An OCR-detector-like input {@code x[batch, 3, height, width]} (p2o-style names) reduced to {@code y[batch, 3]}. */
    public static Path dynamicVision(Path dir) {
        GraphBuilder g = new GraphBuilder("det", 1);
        String x = g.input("x", DType.FLOAT32, "p2o.DynamicDimension.0", 3, "height", "width");
        String w = g.uniform("w", 0.5, 1, 3, 1, 1);
        String h = g.op("Mul", "scale", List.of(x, w));
        g.opInto("ReduceMean", "y", List.of(h), GraphBuilder.ints("axes", 2, 3), GraphBuilder.attr("keepdims", 0L));
        g.output("y", DType.FLOAT32, "p2o.DynamicDimension.0", 3);
        return write(dir, "ocr-det", g.build("dynamic vision"));
    }

    /**
     * A voice-activity-detector-like model: {@code input[batch, samples]}, a scalar {@code sr} (int64), a recurrent
     * {@code state[2, batch, 16]}; outputs a probability per item and the next state.
     */
    public static Path vadLike(Path dir) {
        GraphBuilder g = new GraphBuilder("vad", 2);
        String x = g.input("input", DType.FLOAT32, "batch", "samples");
        String sr = g.input("sr", DType.INT64);
        String state = g.input("state", DType.FLOAT32, 2, "batch", 16);
        String energy = g.op("ReduceMean", "energy", List.of(g.op("Mul", "sq", List.of(x, x))), GraphBuilder.ints("axes", 1),
                GraphBuilder.attr("keepdims", 1L));
        String srf = g.op("Cast", "srf", List.of(sr), GraphBuilder.attr("to", (long) DType.FLOAT32.onnxCode()));
        String scaled = g.op("Div", "norm", List.of(srf, g.scalar("k16000", 16000f)));
        String st = g.op("ReduceMean", "st", List.of(state), GraphBuilder.ints("axes", 0, 2), GraphBuilder.attr("keepdims", 0L));
        String logit = g.op("Add", "logit", List.of(g.op("Mul", "e", List.of(energy, scaled)), g.op("Unsqueeze", "stu",
                List.of(st, g.vector("ax1", 1)))));
        g.opInto("Sigmoid", "output", List.of(logit));
        g.opInto("Add", "stateN", List.of(state, g.scalar("half", 0.5f)));
        g.output("output", DType.FLOAT32, "batch", 1);
        g.output("stateN", DType.FLOAT32, 2, "batch", 16);
        return write(dir, "vad", g.build("stateful audio"));
    }

    /** A text-encoder-like model: {@code input_ids[batch, sequence]} int64 into a 50-row embedding, a bool mask. */
    public static Path textIds(Path dir) {
        GraphBuilder g = new GraphBuilder("enc", 3);
        String ids = g.input("input_ids", DType.INT64, "batch", "sequence");
        String mask = g.input("attention_mask", DType.BOOL, "batch", "sequence");
        String emb = g.op("Gather", "emb", List.of(g.uniform("E", 1.0, 50, 8), ids));
        String m = g.op("Unsqueeze", "m", List.of(g.op("Cast", "mf", List.of(mask), GraphBuilder.attr("to", (long) DType.FLOAT32.onnxCode())),
                g.vector("ax2", 2)));
        g.opInto("ReduceMean", "pooled", List.of(g.op("Mul", "masked", List.of(emb, m))), GraphBuilder.ints("axes", 1),
                GraphBuilder.attr("keepdims", 0L));
        g.output("pooled", DType.FLOAT32, "batch", 8);
        return write(dir, "text-ids", g.build("ids and mask"));
    }

    /**
     * A Hugging Face–style sentence encoder as exporters write it: {@code input_ids}, {@code attention_mask} and
     * {@code token_type_ids} of {@code [batch_size, sequence_length]} int64 (a 60-row vocabulary), {@code last_hidden_state}
     * {@code [batch_size, sequence_length, 8]}: each position's word and type embeddings through a tanh layer.
     */
    public static Path sentenceEncoder(Path dir) {
        GraphBuilder g = new GraphBuilder("sentence", 6);
        String ids = g.input("input_ids", DType.INT64, "batch_size", "sequence_length");
        g.input("attention_mask", DType.INT64, "batch_size", "sequence_length");
        String types = g.input("token_type_ids", DType.INT64, "batch_size", "sequence_length");
        String emb = g.op("Add", "emb", List.of(g.op("Gather", "word", List.of(g.uniform("E", 1.0, 60, 8), ids)),
                g.op("Gather", "type", List.of(g.uniform("T", 0.1, 2, 8), types))));
        g.opInto("Tanh", "last_hidden_state", List.of(g.op("MatMul", "dense", List.of(emb, g.uniform("W", 0.5, 8, 8)))));
        g.output("last_hidden_state", DType.FLOAT32, "batch_size", "sequence_length", 8);
        return write(dir, "sentence-encoder", g.build("sentence encoder"));
    }

    /**
     * A speech-to-text export in Optimum's Whisper layout, as transformers.js ships it: {@code onnx/encoder_model.onnx} and
     * {@code onnx/decoder_model_merged.onnx} (the suite's authored encoder and merged decoder) and a
     * {@code generation_config.json} whose start token and forced ids make the prompt.
     */
    public static Path whisperExport(Path dir) {
        try {
            Path folder = Files.createDirectories(dir.resolve("whisper-export").resolve("onnx"));
            Files.write(folder.resolve("encoder_model.onnx"), dev.accelbridge.suites.audio.WhisperEncoderModel.build("encoder",
                    new dev.accelbridge.suites.audio.WhisperEncoderModel.Config(100, 64, 2, 4), 11).toBytes());
            Files.write(folder.resolve("decoder_model_merged.onnx"), dev.accelbridge.suites.audio.WhisperDecoderModel.build("decoder",
                    new dev.accelbridge.suites.audio.WhisperDecoderModel.Config(64, 2, 4, 64), 11).toBytes());
            Files.writeString(folder.getParent().resolve("generation_config.json"),
                    "{\"decoder_start_token_id\": 1, \"forced_decoder_ids\": [[2, 3], [1, 2], [3, 4]], \"max_length\": 64}");
            return folder.getParent();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** One op on a batch-dynamic input: {@code y = op(x)}, {@code x[batch, 6]}. */
    public static Path unary(Path dir, String op) {
        GraphBuilder g = new GraphBuilder(op, 4);
        String x = g.input("x", DType.FLOAT32, "batch", 6);
        g.opInto(op, "y", List.of(x));
        g.output("y", DType.FLOAT32, "batch", 6);
        return write(dir, "op-" + op.toLowerCase(java.util.Locale.ROOT), g.build(op));
    }

    /** A model whose input is a STRING tensor: Accelbridge cannot feed it. */
    public static Path stringInput(Path dir) {
        ValueInfoProto s = ValueInfoProto.newBuilder().setName("text").setType(TypeProto.newBuilder().setTensorType(
                TypeProto.Tensor.newBuilder().setElemType(8).setShape(TensorShapeProto.newBuilder()
                        .addDim(TensorShapeProto.Dimension.newBuilder().setDimValue(1))))).build();
        GraphBuilder g = new GraphBuilder("strings", 5);
        g.opInto("Identity", "out", List.of("text"));
        ModelProto m = g.build("string input");
        ModelProto.Builder b = m.toBuilder();
        b.getGraphBuilder().addInput(s).addOutput(s.toBuilder().setName("out"));
        return write(dir, "string-input", b.build());
    }

    /** A model with a custom-domain op no runtime implements. */
    public static Path customOp(Path dir) {
        GraphBuilder g = new GraphBuilder("custom", 6);
        String x = g.input("x", DType.FLOAT32, 1, 4);
        g.opInto("Frobnicate", "y", List.of(x));
        g.output("y", DType.FLOAT32, 1, 4);
        ModelProto.Builder b = g.build("custom op").toBuilder();
        b.getGraphBuilder().getNodeBuilder(0).setDomain("com.example");
        b.addOpsetImport(OperatorSetIdProto.newBuilder().setDomain("com.example").setVersion(1));
        return write(dir, "custom-op", b.build());
    }

    /** A test-data-layout folder whose shipped reference output has 7 elements for a 4-element output. */
    public static Path wrongReference(Path dir) {
        GraphBuilder g = new GraphBuilder("wrongref", 7);
        String x = g.input("X", DType.FLOAT32, 2, 2);
        g.opInto("Relu", "Y", List.of(x));
        g.output("Y", DType.FLOAT32, 2, 2);
        Path folder = write(dir, "wrong-reference", g.build("wrong reference"));
        try {
            Path ds = Files.createDirectories(folder.resolve("test_data_set_0"));
            Files.write(ds.resolve("input_0.pb"), OnnxTensors.toProto(NamedTensor.ofFloats("X", new long[]{2, 2},
                    new float[]{1, -2, 3, -4})).toByteArray());
            Files.write(ds.resolve("output_0.pb"), OnnxTensors.toProto(NamedTensor.ofFloats("Y", new long[]{7},
                    new float[]{1, 0, 3, 0, 0, 0, 0})).toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return folder;
    }

    /**
     * A Relu whose output is declared without a shape (unknown rank, as converters and the op suite write them), with
     * test data: 2×2 in, 2×2 out.
     */
    public static Path shapelessOutput(Path dir) {
        GraphBuilder g = new GraphBuilder("shapeless", 8);
        String x = g.input("X", DType.FLOAT32, 2, 2);
        g.opInto("Relu", "Y", List.of(x));
        g.outputOfType("Y", DType.FLOAT32);
        Path folder = write(dir, "shapeless-output", g.build("output without a shape"));
        try {
            Path ds = Files.createDirectories(folder.resolve("test_data_set_0"));
            Files.write(ds.resolve("input_0.pb"), OnnxTensors.toProto(NamedTensor.ofFloats("X", new long[]{2, 2},
                    new float[]{1, -2, 3, -4})).toByteArray());
            Files.write(ds.resolve("output_0.pb"), OnnxTensors.toProto(NamedTensor.ofFloats("Y", new long[]{2, 2},
                    new float[]{1, 0, 3, 0})).toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return folder;
    }

    /**
     * An MLP whose weights live in {@code model.onnx_data} beside it (ONNX external data, as exporters write models
     * over 2 GB): {@code x[batch, 32] → y[batch, 8]}.
     */
    public static Path externalWeights(Path dir) {
        GraphBuilder g = new GraphBuilder("external", 8);
        String x = g.input("x", DType.FLOAT32, "batch", 32);
        String h = g.op("Relu", "h", List.of(g.op("MatMul", "mm1", List.of(x, g.uniform("w1", 0.3, 32, 64)))));
        g.opInto("MatMul", "y", List.of(h, g.uniform("w2", 0.3, 64, 8)));
        g.output("y", DType.FLOAT32, "batch", 8);
        ModelProto.Builder b = g.build("external data").toBuilder();
        java.io.ByteArrayOutputStream data = new java.io.ByteArrayOutputStream();
        for (int i = 0; i < b.getGraph().getInitializerCount(); i++) {
            var t = b.getGraphBuilder().getInitializerBuilder(i);
            byte[] raw = t.getRawData().toByteArray();
            int offset = data.size();
            data.write(raw, 0, raw.length);
            t.clearRawData().setDataLocation(dev.accelbridge.suites.onnx.proto.Onnx.TensorProto.DataLocation.EXTERNAL)
                    .addExternalData(kv("location", "model.onnx_data")).addExternalData(kv("offset", Integer.toString(offset)))
                    .addExternalData(kv("length", Integer.toString(raw.length)));
        }
        Path folder = write(dir, "external-weights", b.build());
        try {
            Files.write(folder.resolve("model.onnx_data"), data.toByteArray());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return folder;
    }

    private static dev.accelbridge.suites.onnx.proto.Onnx.StringStringEntryProto kv(String k, String v) {
        return dev.accelbridge.suites.onnx.proto.Onnx.StringStringEntryProto.newBuilder().setKey(k).setValue(v).build();
    }

    /** A model converted to float16 with float32 inputs and outputs kept (Cast at the edges), like ORT's converter. */
    public static Path fp16Weights(Path dir) {
        GraphBuilder g = new GraphBuilder("fp16", 9);
        String x = g.input("x", DType.FLOAT32, "batch", 16);
        String xh = g.op("Cast", "in16", List.of(x), GraphBuilder.attr("to", (long) DType.FLOAT16.onnxCode()));
        String h = g.op("MatMul", "mm", List.of(xh, "w16"));
        g.opInto("Cast", "y", List.of(g.op("Relu", "relu", List.of(h))), GraphBuilder.attr("to", (long) DType.FLOAT32.onnxCode()));
        g.output("y", DType.FLOAT32, "batch", 8);
        ModelProto.Builder b = g.build("fp16 weights").toBuilder();
        java.util.SplittableRandom r = new java.util.SplittableRandom(9);
        java.nio.ByteBuffer raw = java.nio.ByteBuffer.allocate(16 * 8 * 2).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        for (int i = 0; i < 16 * 8; i++) {
            raw.putShort(InputValues.halfOf((float) (r.nextDouble() * 0.6 - 0.3)));
        }
        b.getGraphBuilder().addInitializer(dev.accelbridge.suites.onnx.proto.Onnx.TensorProto.newBuilder().setName("w16")
                .setDataType(DType.FLOAT16.onnxCode()).addDims(16).addDims(8)
                .setRawData(com.google.protobuf.ByteString.copyFrom(raw.array())));
        return write(dir, "fp16-weights", b.build());
    }

    /** An int8 model in QDQ form: quantized weights and activations around a float MatMul. */
    public static Path int8Qdq(Path dir) {
        GraphBuilder g = new GraphBuilder("int8", 10);
        String x = g.input("x", DType.FLOAT32, "batch", 16);
        String scale = g.scalar("x_scale", 0.05f);
        String zp = "x_zp";
        String q = g.op("QuantizeLinear", "q", List.of(x, scale, zp));
        String dq = g.op("DequantizeLinear", "dq", List.of(q, scale, zp));
        String w = g.op("DequantizeLinear", "wdq", List.of("w_q", g.scalar("w_scale", 0.01f), "w_zp"));
        g.opInto("MatMul", "y", List.of(dq, w));
        g.output("y", DType.FLOAT32, "batch", 8);
        ModelProto.Builder b = g.build("int8 qdq").toBuilder();
        byte[] wq = new byte[16 * 8];
        java.util.SplittableRandom r = new java.util.SplittableRandom(10);
        for (int i = 0; i < wq.length; i++) {
            wq[i] = (byte) (r.nextInt(61) - 30);
        }
        var gb = b.getGraphBuilder();
        gb.addInitializer(dev.accelbridge.suites.onnx.proto.Onnx.TensorProto.newBuilder().setName("w_q").setDataType(DType.INT8.onnxCode())
                .addDims(16).addDims(8).setRawData(com.google.protobuf.ByteString.copyFrom(wq)));
        for (String name : List.of("x_zp", "w_zp")) {
            gb.addInitializer(dev.accelbridge.suites.onnx.proto.Onnx.TensorProto.newBuilder().setName(name).setDataType(DType.INT8.onnxCode())
                    .setRawData(com.google.protobuf.ByteString.copyFrom(new byte[]{0})));
        }
        return write(dir, "int8-qdq", b.build());
    }

    /** An Optimum-style vision export: pixel_values[batch_size, num_channels, height, width] and its preprocessor config. */
    public static Path optimumVision(Path dir) {
        GraphBuilder g = new GraphBuilder("vit", 11);
        String x = g.input("pixel_values", DType.FLOAT32, "batch_size", "num_channels", "height", "width");
        g.opInto("ReduceMean", "logits", List.of(x), GraphBuilder.ints("axes", 2, 3), GraphBuilder.attr("keepdims", 0L));
        g.output("logits", DType.FLOAT32, "batch_size", "num_channels");
        Path folder = write(dir, "optimum-vision", g.build("optimum vision"));
        config(folder, "{\"do_normalize\": true, \"do_rescale\": true, \"rescale_factor\": 0.00392156862745098, "
                + "\"image_mean\": [0.5, 0.5, 0.5], \"image_std\": [0.5, 0.5, 0.5], \"size\": {\"height\": 32, \"width\": 32}}");
        return folder;
    }

    /** An Optimum-style Whisper encoder export: input_features[batch_size, feature_size, encoder_sequence_length]. */
    public static Path optimumWhisper(Path dir) {
        GraphBuilder g = new GraphBuilder("whisper", 12);
        String x = g.input("input_features", DType.FLOAT32, "batch_size", "feature_size", "encoder_sequence_length");
        g.opInto("ReduceMean", "last_hidden_state", List.of(x), GraphBuilder.ints("axes", 2), GraphBuilder.attr("keepdims", 0L));
        g.output("last_hidden_state", DType.FLOAT32, "batch_size", "feature_size");
        Path folder = write(dir, "optimum-whisper", g.build("optimum whisper"));
        config(folder, "{\"feature_extractor_type\": \"WhisperFeatureExtractor\", \"feature_size\": 80, \"nb_max_frames\": 300, "
                + "\"sampling_rate\": 16000}");
        return folder;
    }

    /** An Optimum-style wav2vec2 export: input_values and attention_mask of one symbolic length. */
    public static Path optimumWav2vec(Path dir) {
        GraphBuilder g = new GraphBuilder("w2v", 13);
        String x = g.input("input_values", DType.FLOAT32, "batch_size", "sequence_length");
        String m = g.input("attention_mask", DType.INT64, "batch_size", "sequence_length");
        String mf = g.op("Cast", "mf", List.of(m), GraphBuilder.attr("to", (long) DType.FLOAT32.onnxCode()));
        g.opInto("ReduceMean", "pooled", List.of(g.op("Mul", "masked", List.of(x, mf))), GraphBuilder.ints("axes", 1),
                GraphBuilder.attr("keepdims", 1L));
        g.output("pooled", DType.FLOAT32, "batch_size", 1);
        Path folder = write(dir, "optimum-wav2vec", g.build("optimum wav2vec"));
        config(folder, "{\"feature_extractor_type\": \"Wav2Vec2FeatureExtractor\", \"sampling_rate\": 16000, \"do_normalize\": true}");
        return folder;
    }

    private static void config(Path folder, String json) {
        try {
            Files.writeString(folder.resolve("preprocessor_config.json"), json);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A file that is not an ONNX model at all (a truncated download). */
    public static Path corrupt(Path dir) {
        try {
            Path folder = Files.createDirectories(dir.resolve("truncated"));
            Files.write(folder.resolve("model.onnx"), new byte[]{0x08, 0x08, 0x12, 0x7f, 0x01, 0x02});
            return folder;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Writes a NumPy .npy file (version 1, little-endian float32). */
    public static Path npy(Path file, long[] shape, float[] values) {
        StringBuilder dims = new StringBuilder();
        for (long d : shape) {
            dims.append(d).append(", ");
        }
        String header = "{'descr': '<f4', 'fortran_order': False, 'shape': (" + (shape.length == 1 ? dims : dims.toString()
                .replaceAll(", $", "")) + "), }";
        int total = 10 + header.length() + 1;
        int pad = (64 - total % 64) % 64;
        header = header + " ".repeat(pad) + "\n";
        java.nio.ByteBuffer b = java.nio.ByteBuffer.allocate(10 + header.length() + values.length * 4).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.put((byte) 0x93).put("NUMPY".getBytes(java.nio.charset.StandardCharsets.US_ASCII)).put((byte) 1).put((byte) 0)
                .putShort((short) header.length()).put(header.getBytes(java.nio.charset.StandardCharsets.US_ASCII));
        for (float v : values) {
            b.putFloat(v);
        }
        try {
            Files.write(file, b.array());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return file;
    }
}
