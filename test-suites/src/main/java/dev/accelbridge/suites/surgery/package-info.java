/**
 * Graph surgery for finding why a backend is wrong: exposing a model's intermediate values as extra outputs
 * ({@link dev.accelbridge.suites.surgery.Taps}) and cutting one node out into a single-node model with its actual
 * inputs and reference outputs in the ONNX test-data layout ({@link dev.accelbridge.suites.surgery.NodeRepro}).
 */
package dev.accelbridge.suites.surgery;
