/**
 * Native cases at another ONNX Runtime version than this process loaded ({@code accelbridge run --ort}): the same native
 * provider in a runner process of its own ({@link dev.accelbridge.nativerunner.process.ProcessRuntimeProvider}), its class
 * path holding that version's jar from Maven Central ({@code OrtJars}), so native libraries never mix in one process.
 */
package dev.accelbridge.nativerunner.process;
