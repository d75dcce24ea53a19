/**
 * The pure fallback resolver (no I/O): a {@link dev.accelbridge.fallback.Chain} of candidate backends and
 * the probes' {@link dev.accelbridge.core.Availability} answers go in, a
 * {@link dev.accelbridge.fallback.Resolution} comes out that names every candidate and why it was taken or
 * rejected. Runtime fallback (a load/run failure, optionally a wrong output, on the chosen hop) moves the
 * resolution to the next available hop and keeps the failure as that hop's reason.
 */
package dev.accelbridge.fallback;
