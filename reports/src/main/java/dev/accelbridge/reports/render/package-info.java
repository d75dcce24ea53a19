/**
 * Renderers of the matrix, all from the store: {@code report.html} (self-contained, Apache ECharts inlined),
 * {@code report.md}, {@code matrix.json} and {@code junit.xml}. {@link dev.accelbridge.reports.render.ReportWriter}
 * writes all four; {@link dev.accelbridge.reports.render.MatrixBuilder} assembles the cells they share.
 */
package dev.accelbridge.reports.render;
