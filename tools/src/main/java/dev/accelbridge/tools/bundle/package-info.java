/**
 * The offline bundle ({@code accelbridge bundle}): a self-contained folder that runs the matrix on an x86-64 Linux host
 * with no network and no JDK, browser or Node.js: a Java runtime made by {@code jlink}, the application's jars, the
 * pinned headless shell as a verified cache entry (and the libraries it needs beyond the C library), asked-for
 * onnxruntime-web versions as verified cache entries, and users' models; packed as one archive cut into parts no larger
 * than a size the user sets, each part's sha256 in a manifest that the bundle's {@code install.sh} checks on the target
 * before anything is joined or unpacked, and every unpacked file checked again against the application's own list.
 */
package dev.accelbridge.tools.bundle;
