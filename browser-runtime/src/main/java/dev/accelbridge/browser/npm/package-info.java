/**
 * Versions of npm packages as Accelbridge gets them ({@link dev.accelbridge.browser.npm.NpmRegistry}): the folders the
 * build installed, else the cache, else the npm registry at first use, each tarball checked against the integrity the
 * registry publishes. onnxruntime-web's releases and the headless shell's majors come this way.
 */
package dev.accelbridge.browser.npm;
