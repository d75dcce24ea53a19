/**
 * Starting and stopping real browsers pointed at the bridge's page: one {@link dev.accelbridge.browser.launch.BrowserLauncher}
 * interface with Playwright (default), Selenium (local ChromeDriver or a Grid through RemoteWebDriver) and
 * plain-process implementations, obtained from {@link dev.accelbridge.browser.launch.BrowserLaunchers#forDriver}.
 * The launcher only opens the page; everything after that (probe, jobs) travels over the page's WebSocket, so it
 * is the same whichever launcher started the browser.
 *
 * <ul>
 *   <li>{@link dev.accelbridge.browser.launch.BrowserDiscovery} finds installed browsers and their versions
 *       (overrides: {@code -Daccelbridge.<id>} / {@code ACCELBRIDGE_<ID>}); the Chromium 153 headless shell
 *       (WebNN) comes from the npm package {@code @sparticuz/chromium} in {@code browser-runtime/browsers}.</li>
 *   <li>{@link dev.accelbridge.browser.launch.ChromiumFlags} is the only place Chromium command lines are made;
 *       {@link dev.accelbridge.browser.launch.FirefoxPrefs} the only place Firefox preferences are;
 *       {@link dev.accelbridge.browser.launch.HeadlessSurfaces} the only place a browser's environment gets the
 *       headless-surface Vulkan layer (built from {@code src/main/c} into the jar, verified in the cache).</li>
 *   <li>Every launch uses a fresh temporary profile, deleted by {@link dev.accelbridge.browser.launch.BrowserHandle#close()};
 *       {@link dev.accelbridge.browser.launch.BrowserHandle#kill()} kills the browser's process tree at once.</li>
 *   <li>Launchers and handles may be called from any thread: Playwright, which is not thread-safe, is confined to
 *       the launcher's own thread.</li>
 * </ul>
 */
package dev.accelbridge.browser.launch;
