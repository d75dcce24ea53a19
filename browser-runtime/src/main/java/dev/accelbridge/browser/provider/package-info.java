/**
 * The browser backends' provider: {@link dev.accelbridge.browser.provider.BrowserBackendProvider} runs a case on a
 * lane's page (launching its browser, renewing or relaunching the page after a failure, checking a page an inference
 * failed in), sends the next cases ahead, and turns the page's replies into a case's execution and its failures.
 */
package dev.accelbridge.browser.provider;
