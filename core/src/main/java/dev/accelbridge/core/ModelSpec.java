package dev.accelbridge.core;

import java.nio.file.Path;
import java.util.List;

/**
 * A model Accelbridge can run: where its ONNX file is and what it looks like.
 *
 * @param family     the suite it belongs to (text, vision, audio) or OTHER
 * @param name       a short stable name, e.g. {@code bert-tiny}; the matrix keys on it
 * @param path       the {@code .onnx} file
 * @param sha256     hex SHA-256 of the file, so results name the exact bytes that ran
 * @param opset      the default-domain opset the model imports
 * @param parameters number of weight elements in its initializers
 * @param ops        the distinct op types of its graph, sorted
 * @param inputs     the declared graph inputs
 * @param outputs    the declared graph outputs
 * @param source     {@code generated} for suite models, or the folder a user model came from
 * @param tolerance  the absolute parity tolerance given for this model, or NaN for the per-backend, per-type defaults
 *                   ({@link Tolerance#defaults})
 * @param cost       what one inference costs where known (its FLOPs for a model Accelbridge authored, its weights' bytes)
 */
public record ModelSpec(ModelFamily family, String name, Path path, String sha256, long opset, long parameters,
                        List<String> ops, List<TensorSpec> inputs, List<TensorSpec> outputs, String source,
                        double tolerance, ModelCost cost) {
    public ModelSpec {
        cost = cost == null ? ModelCost.UNKNOWN : cost;
        ops = List.copyOf(ops);
        inputs = List.copyOf(inputs);
        outputs = List.copyOf(outputs);
    }

    /** A model whose cost is not known. */
    public ModelSpec(ModelFamily family, String name, Path path, String sha256, long opset, long parameters, List<String> ops,
                     List<TensorSpec> inputs, List<TensorSpec> outputs, String source, double tolerance) {
        this(family, name, path, sha256, opset, parameters, ops, inputs, outputs, source, tolerance, ModelCost.UNKNOWN);
    }

    /** The same model judged by {@code atol} ({@code --tolerance}, a folder's accelbridge.json, a variant's base). */
    public ModelSpec withTolerance(double atol) {
        return new ModelSpec(family, name, path, sha256, opset, parameters, ops, inputs, outputs, source, atol, cost);
    }
}
