/** Accelbridge browser-runtime module (see DESIGN.md). */
package dev.accelbridge.browser;
