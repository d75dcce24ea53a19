/**
 * Accelbridge reports: the shared compatibility matrix and everything rendered from it.
 * <ul>
 *   <li>{@link dev.accelbridge.reports.store} — the embedded DuckDB store (versioned schema, one transaction per
 *       case, export/merge as JSON)</li>
 *   <li>{@link dev.accelbridge.reports.score} — the documented compatibility score and grade of a cell</li>
 *   <li>{@link dev.accelbridge.reports.history} — regression and improvement detection on stored samples</li>
 *   <li>{@link dev.accelbridge.reports.render} — HTML (charts inlined), Markdown, JSON and JUnit XML</li>
 * </ul>
 * {@link dev.accelbridge.reports.ExitPolicy} turns {@code --fail-on} into the process exit code.
 */
package dev.accelbridge.reports;
