/** Accelbridge tools module (see docs/design.md and docs/architecture.md). */
package dev.accelbridge.tools;
