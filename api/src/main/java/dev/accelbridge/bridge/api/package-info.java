/**
 * The Java API: Accelbridge inside a program or a test suite instead of behind the command line.
 * {@link dev.accelbridge.bridge.api.Accelbridge#create} opens a {@link dev.accelbridge.bridge.api.AccelbridgeSession}
 * that owns the store, the native providers and the browsers (kept open across its runs);
 * {@link dev.accelbridge.bridge.api.AccelbridgeSession#run} takes a {@link dev.accelbridge.bridge.run.RunPlan} and gives
 * typed {@link dev.accelbridge.bridge.api.CaseResult}s, every one also written to the store as the CLI writes them.
 */
package dev.accelbridge.bridge.api;
