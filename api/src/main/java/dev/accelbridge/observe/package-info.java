/**
 * A user's app observed, judged as a run's cases are: each session's runs replayed natively on the CPU
 * ({@link dev.accelbridge.observe.ObservedJudge}), a wrong one bisected on its own lane
 * ({@link dev.accelbridge.observe.ObservedBisections}), the sessions replayed on other lanes
 * ({@link dev.accelbridge.observe.ObservedReplays}), each as a row of the matrix ({@link dev.accelbridge.observe.ObservedRows}),
 * one observation a run of the store ({@link dev.accelbridge.observe.ObservedRuns}). What a program calls stays in
 * {@code dev.accelbridge.api} ({@code AccelbridgeSession.observe}, {@code ObservedPage}); the visit that drives the page is
 * browser-runtime's ({@code dev.accelbridge.browser.observe}).
 */
package dev.accelbridge.observe;
