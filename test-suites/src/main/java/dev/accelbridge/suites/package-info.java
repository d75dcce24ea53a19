/**
 * Accelbridge test-suites: the built-in model suites ({@link dev.accelbridge.suites.SuiteCatalog}) for text,
 * vision and audio, authored in Java as real ONNX with seeded weights and fed by real input pipelines
 * (WordPiece tokenizer, resized and normalised image, Whisper log-mel), and the loader for a user's own
 * model folder ({@link dev.accelbridge.suites.ModelFolderLoader}: ONNX test-data layout, Hugging Face
 * Optimum export, or a single static-shaped {@code .onnx}). Errors are {@link dev.accelbridge.suites.SuiteException}s.
 */
package dev.accelbridge.suites;
