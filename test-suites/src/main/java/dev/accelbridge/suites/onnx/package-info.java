/**
 * ONNX authoring and reading: the schema classes compiled from the vendored {@code onnx.proto}
 * ({@code dev.accelbridge.suites.onnx.proto.Onnx}), a fluent {@link dev.accelbridge.suites.onnx.GraphBuilder}
 * with seeded weights, shared transformer/convolution {@link dev.accelbridge.suites.onnx.Layers}, and
 * {@link dev.accelbridge.suites.onnx.OnnxTensors} to convert between {@code TensorProto} and
 * {@link dev.accelbridge.core.NamedTensor}.
 */
package dev.accelbridge.suites.onnx;
