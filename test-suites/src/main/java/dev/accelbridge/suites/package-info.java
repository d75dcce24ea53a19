/** Accelbridge test-suites module (see DESIGN.md). */
package dev.accelbridge.suites;
