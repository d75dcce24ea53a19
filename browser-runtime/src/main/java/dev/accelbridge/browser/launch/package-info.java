/**
 * Starting and stopping real browsers pointed at the bridge's page: one {@link dev.accelbridge.browser.launch.BrowserLauncher}
 * interface with Playwright (default), Selenium (local ChromeDriver or a Grid through RemoteWebDriver) and
 * plain-process implementations. The launcher only opens the page; everything after that (probe, jobs)
 * travels over the page's WebSocket, so it is the same whichever launcher started the browser.
 */
package dev.accelbridge.browser.launch;
