/** Accelbridge bridge-server module (see docs/design.md and docs/architecture.md). */
package dev.accelbridge.bridge;
