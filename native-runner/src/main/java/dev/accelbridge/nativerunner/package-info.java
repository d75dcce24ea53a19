/**
 * Native inference for Accelbridge: ONNX Runtime through DJL's OnnxRuntime engine on the CPU, CUDA, ROCm,
 * CoreML and OpenVINO execution providers ({@link dev.accelbridge.nativerunner.DjlOnnxRuntimeProvider},
 * registered as a {@link dev.accelbridge.core.BackendProvider} service), the host description
 * ({@link dev.accelbridge.nativerunner.HostDetector}, OSHI) and the backend probes, whose deciding logic is
 * the pure {@link dev.accelbridge.nativerunner.NativeProbe} so it can be tested without the hardware.
 */
package dev.accelbridge.nativerunner;
