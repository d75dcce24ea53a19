/** Accelbridge native-runner module (see DESIGN.md). */
package dev.accelbridge.nativerunner;
