/**
 * The op-conformance suite ({@code --suites ops}): one single-op model per ONNX operator, opset, attribute variant and
 * data type, with inputs generated so each result means something, and what ONNX Runtime's web execution providers
 * declare they run ({@link dev.accelbridge.suites.ops.OpKernels}, kept as data with its source).
 */
package dev.accelbridge.suites.ops;
