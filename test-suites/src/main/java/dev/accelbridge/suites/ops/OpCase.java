package dev.accelbridge.suites.ops;

import dev.accelbridge.core.DType;
import dev.accelbridge.core.OpVariant;
import dev.accelbridge.suites.onnx.GraphBuilder;

import java.util.List;

/**
 * One case of the op suite: one node of {@code variant.opType()} at {@code variant.opset()}, its inputs (fed or
 * constant), attributes and output types.
 *
 * @param variant what it tests (its model name)
 * @param inputs  the node's inputs in order; an omitted optional input has an empty name
 * @param attrs   the node's attributes
 * @param outputs the element types of the node's outputs, in order
 * @param guard   whether it is its op's one case in the project's own guard ({@code ./setup.sh test})
 */
record OpCase(OpVariant variant, List<Input> inputs, List<GraphBuilder.Attr> attrs, List<DType> outputs, boolean guard) {
    /**
     * An input of the node.
     *
     * @param name     its name in the graph; empty when an optional input is left out
     * @param dtype    its element type
     * @param shape    its shape
     * @param gen      how its values are made
     * @param constant an initializer (shapes, axes, weights) rather than a fed graph input
     */
    record Input(String name, DType dtype, long[] shape, Gen gen, boolean constant) {
        boolean omitted() {
            return name.isEmpty();
        }
    }

    OpCase {
        inputs = List.copyOf(inputs);
        attrs = List.copyOf(attrs);
        outputs = List.copyOf(outputs);
    }

    OpCase asGuard() {
        return new OpCase(variant, inputs, attrs, outputs, true);
    }
}
