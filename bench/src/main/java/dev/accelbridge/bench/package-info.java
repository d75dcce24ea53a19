/**
 * The harnesses behind {@code bench/*&#47;run.sh}: each measures Accelbridge against a bare baseline in the same run and
 * prints the ratio (the page, the native runner, a browser launch, generation, positions in a lane, conformance,
 * report rendering). They use the modules' published API and the tests' fixtures, nothing package-private.
 */
package dev.accelbridge.bench;
