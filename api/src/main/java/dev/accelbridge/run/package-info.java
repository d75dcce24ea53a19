/**
 * The run orchestrator: plan → probes → resolution along fallback chains → native CPU reference → cases on
 * every requested backend (native in-process, browsers through the bridge) → one {@link dev.accelbridge.core.RunResult}
 * per case, written to the store at once. Timing is never taken here: providers measure where inference happens.
 */
package dev.accelbridge.run;
