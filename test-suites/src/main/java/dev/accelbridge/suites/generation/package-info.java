/**
 * The text-generation suite: a Llama-style decoder with a KV cache authored in ONNX ({@link
 * dev.accelbridge.suites.generation.LlamaDecoderModel}), its prompts, and the single decode steps at chosen cache depths
 * that attention kernels are known to break at ({@link dev.accelbridge.suites.generation.DecodeSteps}).
 */
package dev.accelbridge.suites.generation;
