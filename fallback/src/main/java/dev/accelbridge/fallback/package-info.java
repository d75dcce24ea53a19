/** Accelbridge fallback module (see DESIGN.md). */
package dev.accelbridge.fallback;
