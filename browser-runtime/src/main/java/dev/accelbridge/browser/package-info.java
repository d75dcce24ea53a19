/** Accelbridge browser-runtime module (see docs/design.md and docs/architecture.md). */
package dev.accelbridge.browser;
