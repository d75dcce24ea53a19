/** Accelbridge reports module (see DESIGN.md). */
package dev.accelbridge.reports;
