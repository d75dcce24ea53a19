/**
 * The shared vocabulary of Accelbridge: typed backend ids ({@link dev.accelbridge.core.BackendId}),
 * case statuses ({@link dev.accelbridge.core.Status}), results as values
 * ({@link dev.accelbridge.core.RunResult}), provenance, tensors, and the backend SPI
 * ({@link dev.accelbridge.core.BackendProvider}) found through {@link java.util.ServiceLoader}.
 *
 * <p>This package depends on nothing else of the project; every other module depends on it.
 */
package dev.accelbridge.core;
