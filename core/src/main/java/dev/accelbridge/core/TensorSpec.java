package dev.accelbridge.core;

import java.util.Arrays;

/**
 * A declared graph input or output: name, element type and shape, where a dimension of -1 is dynamic
 * (symbolic or unknown in the model).
 */
public record TensorSpec(String name, DType dtype, long[] shape) {
    @Override
    public boolean equals(Object o) {
        return o instanceof TensorSpec t && name.equals(t.name) && dtype == t.dtype && Arrays.equals(shape, t.shape);
    }

    @Override
    public int hashCode() {
        return name.hashCode() * 31 + Arrays.hashCode(shape);
    }

    @Override
    public String toString() {
        return name + ":" + dtype.webName() + Arrays.toString(shape);
    }
}
