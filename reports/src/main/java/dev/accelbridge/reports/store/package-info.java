/**
 * The matrix store: an embedded DuckDB file with a versioned schema ({@code schema_version}, migrations),
 * one transaction per case, run bookkeeping for {@code --resume}, and JSON export/merge between hosts.
 */
package dev.accelbridge.reports.store;
