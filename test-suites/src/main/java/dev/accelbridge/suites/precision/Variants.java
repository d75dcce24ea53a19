package dev.accelbridge.suites.precision;

import dev.accelbridge.core.Generation;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.suites.OnnxModels;
import dev.accelbridge.suites.onnx.OnnxTensors;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.onnx.proto.Onnx.StringStringEntryProto;

import java.nio.file.Path;
import java.util.Locale;

/**
 * Derives a model's fp16, int8 (or q8: the same dynamic quantization) or q4 variant into the model cache ({@code variants/NAME-SHA12.PRECISION.REVISION.onnx}, reused
 * when present: the converters are deterministic; the name carries their revision) and gives the case that runs it: the same inputs, the variant's
 * file and sha256, recorded at its precision. The variant names its fp32 source in its metadata
 * ({@code accelbridge.variant_of}).
 */
@PublicApi
public final class Variants {
    /** Metadata key naming the fp32 model a variant was derived from. */
    public static final String VARIANT_OF = "accelbridge.variant_of";

    /**
     * The converters' revision, in a cached variant's name: a variant written by other converters (the fp16 converter before
     * it clamped constants as ONNX Runtime's does) is made again, never reused.
     */
    static final String CONVERTERS = "r2";

    private final Path cacheDir;

    /** Variants written under {@code cacheDir/variants}. */
    public Variants(Path cacheDir) {
        this.cacheDir = cacheDir.resolve("variants");
    }

    /**
     * {@code fp32}'s case at {@code precision}.
     *
     * @throws ConversionException when the model cannot be converted to it
     */
    public ModelCase derive(ModelCase fp32, Precision precision) {
        if (precision == Precision.FP32) {
            return fp32;
        }
        if (fp32.scenario() instanceof Generation g && g.encoder() != null) {
            throw new ConversionException("The " + precision.id() + " variant of an encoder-decoder (" + fp32.model().name()
                    + ") is not made: its encoder and merged decoder would have to be converted together, and their joint "
                    + "input and cache types with them", "run it at fp32, or give an encoder and decoder exported at "
                    + precision.id());
        }
        ModelSpec base = fp32.model();
        Path file = cacheDir.resolve(String.format(Locale.ROOT, "%s-%s.%s.%s.onnx", base.name().replaceAll("[^A-Za-z0-9._-]", "_"),
                base.sha256().substring(0, 12), precision.id(), CONVERTERS));
        ModelProto proto = OnnxTensors.readCached(file);
        if (proto == null) { // absent or damaged: derived again
            ModelProto source = OnnxTensors.readModel(base.path());
            proto = convert(source, precision, base.name()).toBuilder().addMetadataProps(StringStringEntryProto.newBuilder().setKey(VARIANT_OF)
                    .setValue(base.name() + "@" + base.sha256())).build();
            OnnxTensors.writeAtomically(file, proto.toByteArray(), "the model variant");
        }
        ModelSpec spec = OnnxModels.inspect(file, proto, base.family(), base.name(), base.source()).withTolerance(base.tolerance());
        // a generation stays one, fed as the converted graph says (an fp16 model's cache is fp16)
        return new ModelCase(spec, fp32.inputSet(), fp32.inputs(), java.util.Optional.empty(), fp32.freeDims(), precision,
                fp32.replacedReference(), fp32.scenario().on(spec), fp32.runtimeOptions());
    }

    /**
     * Writes the fp32 model {@code fp32File} as a transformers.js model folder would ship it: {@code folder/onnx/model.onnx}
     * and one {@code model_SUFFIX.onnx} per precision in {@code precisions} (fp16, int8 or q8, q4), with a
     * {@code config.json} naming {@code architecture}. Used by the suites and the benches to give a folder of every kind of
     * variant a model is shipped in.
     *
     * @return the folder
     * @throws ConversionException when the model cannot be converted to one of them
     */
    public static Path exportFolder(Path fp32File, Path folder, String architecture, java.util.List<Precision> precisions) {
        ModelProto source = OnnxTensors.readModel(fp32File);
        Path onnx = folder.resolve("onnx");
        try {
            java.nio.file.Files.createDirectories(onnx);
            java.nio.file.Files.write(onnx.resolve("model.onnx"), source.toByteArray());
            for (Precision p : precisions) {
                if (p != Precision.FP32) {
                    java.nio.file.Files.write(onnx.resolve("model" + p.suffix() + ".onnx"), convert(source, p,
                            fp32File.getFileName().toString()).toByteArray());
                }
            }
            java.nio.file.Files.writeString(folder.resolve("config.json"), "{\"architectures\": [\"" + architecture + "\"]}");
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
        return folder;
    }

    /**
     * {@code source} (the fp32 model called {@code name}) at {@code precision}, by the converter that makes it.
     *
     * @throws ConversionException when the model cannot be converted to it, or no converter here makes that precision
     */
    private static ModelProto convert(ModelProto source, Precision precision, String name) {
        return switch (precision) {
            case FP32 -> source;
            case FP16 -> Float16Converter.convert(source);
            case INT8, Q8 -> DynamicQuantizer.quantize(source).model();
            case Q4 -> BlockQuantizer.quantize(source);
            case UINT8, Q4F16, BNB4 -> throw new ConversionException("Accelbridge does not derive the " + precision.id()
                    + " variant of " + name, "ship it in the model's folder as onnx/model" + precision.suffix()
                    + ".onnx, or ask for fp16, int8, q8 or q4");
        };
    }
}
