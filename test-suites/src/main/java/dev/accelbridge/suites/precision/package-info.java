/**
 * Precision variants derived from an fp32 ONNX model, in Java on its protobuf: {@link dev.accelbridge.suites.precision.Float16Converter}
 * (float16 weights and compute with float32 inputs and outputs kept, like ONNX Runtime's float16 converter with
 * {@code keep_io_types}) and {@link dev.accelbridge.suites.precision.DynamicQuantizer} (int8 weights of MatMul, Gemm and
 * Conv with activations quantized at run time, like ONNX Runtime's {@code quantize_dynamic}) and
 * {@link dev.accelbridge.suites.precision.BlockQuantizer} (q4: MatMul weights in 4-bit blocks through {@code MatMulNBits}, like
 * ONNX Runtime's {@code MatMul4BitsQuantizer}).
 * {@link dev.accelbridge.suites.precision.Variants} writes them beside the model cache and turns them into cases, or
 * writes a model folder of them as transformers.js ships one ({@code Variants.exportFolder}).
 */
package dev.accelbridge.suites.precision;
