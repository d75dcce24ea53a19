package dev.accelbridge.browser.launch;

import dev.accelbridge.core.BrowserKind;

import org.openqa.selenium.WebDriver;
import org.openqa.selenium.WebDriverException;

import java.nio.file.Path;

/** A local browser under a WebDriver session (ChromeDriver, WebKitWebDriver): liveness asks the session, close quits it. */
abstract class WebDriverHandle extends LocalBrowserHandle {
    private final WebDriver driver;

    WebDriverHandle(BrowserKind browser, String version, Path executable, Path profile, ProcessHandle process, WebDriver driver) {
        super(browser, DriverKind.SELENIUM, version, executable, profile, process);
        this.driver = driver;
    }

    /** Whether the session still answers (its browser is up). */
    static boolean answers(WebDriver driver) {
        try {
            driver.getWindowHandle();
            return true;
        } catch (WebDriverException e) {
            return false;
        }
    }

    @Override
    boolean aliveWithoutPid() {
        return answers(driver);
    }

    @Override
    void closeGracefully() {
        driver.quit();
    }
}
