/**
 * History and regression detection: each cell's newest run against its previous run on the same host, flagged
 * only when the median slowdown passes a threshold AND is significant on the stored samples.
 */
package dev.accelbridge.reports.history;
