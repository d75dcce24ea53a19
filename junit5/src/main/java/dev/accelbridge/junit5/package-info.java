/**
 * Accelbridge in JUnit Jupiter: {@link dev.accelbridge.junit5.AccelbridgeTest} on a class opens one
 * {@link dev.accelbridge.api.AccelbridgeSession} per class (or per engine run); {@link dev.accelbridge.junit5.Backends}
 * on a method makes it a test template run once per requested backend × browser, each invocation given its
 * {@link dev.accelbridge.api.CaseResult}; {@link dev.accelbridge.junit5.AccelbridgeAssertions} checks it.
 */
package dev.accelbridge.junit5;
