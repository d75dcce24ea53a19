/**
 * The Java API: Accelbridge inside a program or a test suite instead of behind the command line.
 * {@link dev.accelbridge.api.Accelbridge#create} opens a {@link dev.accelbridge.api.AccelbridgeSession}
 * that owns the store, the native providers and the browsers (kept open across its runs);
 * {@link dev.accelbridge.api.AccelbridgeSession#run} takes a {@link dev.accelbridge.run.RunPlan} and gives
 * typed {@link dev.accelbridge.api.CaseResult}s, every one also written to the store as the CLI writes them.
 */
package dev.accelbridge.api;
