/**
 * The user's own page, observed: {@link dev.accelbridge.browser.observe.PageObserver} installs the observer script into a
 * Playwright page before any of its scripts run, and reads back every onnxruntime-web session the page made and each of
 * its runs ({@link dev.accelbridge.browser.observe.Observed}), however onnxruntime-web was loaded.
 */
package dev.accelbridge.browser.observe;
