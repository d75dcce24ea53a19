/**
 * Precision variants derived from an fp32 ONNX model, in Java on its protobuf: {@link dev.accelbridge.suites.precision.Float16Converter}
 * (float16 weights and compute with float32 inputs and outputs kept, like ONNX Runtime's float16 converter with
 * {@code keep_io_types}) and {@link dev.accelbridge.suites.precision.DynamicQuantizer} (int8 weights of MatMul, Gemm and
 * Conv with activations quantized at run time, like ONNX Runtime's {@code quantize_dynamic}).
 * {@link dev.accelbridge.suites.precision.Variants} writes them beside the model cache and turns them into cases.
 */
package dev.accelbridge.suites.precision;
