/** Accelbridge bridge-server module (see DESIGN.md). */
package dev.accelbridge.bridge;
