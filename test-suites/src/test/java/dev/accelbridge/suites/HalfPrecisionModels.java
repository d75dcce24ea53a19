package dev.accelbridge.suites;

import dev.accelbridge.core.DType;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Precision;
import dev.accelbridge.suites.onnx.GraphBuilder;
import dev.accelbridge.suites.precision.Variants;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;

import static dev.accelbridge.suites.onnx.GraphBuilder.attr;
import static dev.accelbridge.suites.onnx.GraphBuilder.ints;

/**
 * The models of "why it fails to load, and where half precision ran": a decomposed LayerNorm (ReduceMean, Sub, Pow,
 * ReduceMean, Add, Sqrt, Div, Mul, Add) then a MatMul, as a user's exporter writes it, in fp32 and as the fp16 variant
 * Accelbridge's own converter makes of it (float16 inside, casts at its edges). ONNX Runtime's LayerNormFusion turns the
 * fp16 one into a LayerNormalization node it then rejects; with optimization disabled it loads, and the CPU provider
 * computes its LayerNorm in float32.
 */
public final class HalfPrecisionModels {
    /** The LayerNorm's width. */
    public static final int WIDTH = 16;

    private HalfPrecisionModels() {
    }

    /** The fp32 model, {@code ln.onnx} under {@code dir}. */
    public static Path layerNorm(Path dir) throws IOException {
        GraphBuilder g = new GraphBuilder("decomposed_layernorm", 1);
        String x = g.input("x", DType.FLOAT32, 1, 4, WIDTH);
        String d = g.op("Sub", "sub", List.of(x, g.op("ReduceMean", "mean", List.of(x), ints("axes", -1), attr("keepdims", 1L))));
        String v = g.op("ReduceMean", "var", List.of(g.op("Pow", "pow", List.of(d, g.scalar("two", 2f)))), ints("axes", -1), attr("keepdims", 1L));
        String n = g.op("Div", "div", List.of(d, g.op("Sqrt", "sqrt", List.of(g.op("Add", "eps", List.of(v, g.scalar("epsilon", 1e-5f)))))));
        String ln = g.op("Add", "ln_bias", List.of(g.op("Mul", "ln_scale", List.of(n, g.uniform("gamma", 1.0, WIDTH))), g.uniform("beta", 0.1, WIDTH)));
        g.opInto("MatMul", "y", List.of(ln, g.uniform("W", 0.25, WIDTH, 8)));
        g.output("y", DType.FLOAT32, 1, 4, 8);
        return Files.write(dir.resolve("ln.onnx"), g.build("the report's LayerNorm").toByteArray());
    }

    /** The fp16 variant of {@link #layerNorm} (its fp32 original written beside it). */
    public static Path layerNormFp16(Path dir) throws IOException {
        return Variants.exportFolder(layerNorm(dir), dir.resolve("folder"), "LayerNormModel", List.of(Precision.FP16))
                .resolve("onnx/model_fp16.onnx");
    }

    /**
     * A MatMul on bfloat16 values (casts to bfloat16 before it and back to float after): ONNX allows it, ONNX Runtime's
     * CPU provider has no such kernel (and inserts no casts for bfloat16), so it fails to load at every level.
     */
    public static Path bfloat16MatMul(Path dir) throws IOException {
        GraphBuilder g = new GraphBuilder("bf16_matmul", 1);
        String x = g.input("x", DType.FLOAT32, 1, 4, WIDTH);
        String a = g.op("Cast", "to_bf16", List.of(x), attr("to", 16L));
        String w = g.op("Cast", "w_bf16", List.of(g.uniform("W", 0.25, WIDTH, 8)), attr("to", 16L));
        String y = g.op("MatMul", "mm", List.of(a, w));
        g.opInto("Cast", "y", List.of(y), attr("to", 1L));
        g.output("y", DType.FLOAT32, 1, 4, 8);
        return Files.write(dir.resolve("bf16.onnx"), g.build("a bfloat16 MatMul").toByteArray());
    }

    /** A case of {@code model} on small integers ({@code scale} times (i mod 7) - 3), as the given precision. */
    public static ModelCase caseOf(Path model, Precision precision, float scale) {
        var spec = OnnxModels.inspect(model, ModelFamily.OTHER, "ln " + precision.id(), "test");
        float[] x = new float[4 * WIDTH];
        for (int i = 0; i < x.length; i++) {
            x[i] = scale * ((i % 7) - 3);
        }
        return new ModelCase(spec, "x", List.of(NamedTensor.ofFloats("x", new long[] {1, 4, WIDTH}, x)), Optional.empty())
                .withPrecision(precision);
    }
}
