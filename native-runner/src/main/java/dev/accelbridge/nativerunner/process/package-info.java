/**
 * Native cases on another ONNX Runtime library than this process loaded, each in a runner process of its own so that
 * native libraries never mix in one process: another version ({@code accelbridge run --ort}: the same native provider,
 * {@link dev.accelbridge.nativerunner.process.ProcessRuntimeProvider}, its class path holding that version's jar from
 * Maven Central, {@code OrtJars}), and ONNX Runtime's native WebGPU EP ({@code native-webgpu}:
 * {@link dev.accelbridge.nativerunner.process.NativeWebGpuProvider} on onnxruntime-node's library, {@code NativeWebGpuLibrary}).
 */
package dev.accelbridge.nativerunner.process;
