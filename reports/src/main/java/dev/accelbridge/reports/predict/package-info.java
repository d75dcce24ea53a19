/**
 * Predictions of p50 for combinations the store has not measured, always labelled as predictions and never stored
 * as results: {@link dev.accelbridge.reports.predict.Predictor} fits a model effect and a backend effect to the
 * measured p50s of one host and reports its own leave-one-out error.
 */
package dev.accelbridge.reports.predict;
