package dev.accelbridge.api;

import dev.accelbridge.browser.launch.BrowserDiscovery;
import dev.accelbridge.browser.observe.ObservedApp;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;
import org.openqa.selenium.support.ui.WebDriverWait;

import java.io.File;
import java.nio.file.Path;
import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A user's Selenium test: the observer goes into the pages of its WebDriver session through WebDriver BiDi's preload
 * scripts (Chromium with Debian's ChromeDriver), and the app's session is judged against native CPU as in a Playwright
 * test; a worker, which BiDi's preload scripts do not reach, is said as unseen; a session made without BiDi is refused,
 * saying how to make one.
 */
@RequiresBrowser
class SeleniumObservedPageTest {
    @TempDir
    Path dir;

    private static WebDriver chrome(boolean bidi) {
        ChromeOptions o = new ChromeOptions();
        o.setBinary(BrowserDiscovery.find(BrowserKind.CHROMIUM).orElseThrow().executable().toFile());
        o.addArguments("--headless=new", "--no-sandbox", "--disable-background-networking", "--disable-component-update");
        if (bidi) {
            o.enableBiDi();
        }
        return new ChromeDriver(new ChromeDriverService.Builder().usingDriverExecutable(new File("/usr/bin/chromedriver") /* Debian's, as setup.sh installs it */)
                .usingAnyFreePort().build(), o);
    }

    @Test
    void aSeleniumSessionsPagesAreObservedThroughBiDi() throws Exception {
        WebDriver driver = chrome(true);
        try (ObservedApp app = new ObservedApp(dir); ObservedPage o = Accelbridge.observe(driver)) {
            driver.get(app.url("/"));
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(60));
            wait.until(d -> d.findElement(By.id("run")).isEnabled());
            driver.findElement(By.id("run")).click();
            wait.until(d -> d.findElement(By.tagName("body")).getAttribute("data-done") != null);
            assertThat(o.verdicts()).singleElement().isInstanceOfSatisfying(ObservedVerdict.Judged.class, j -> {
                assertThat(j.status()).isEqualTo(Status.PASSED);
                assertThat(j.backend()).isEqualTo(BackendId.WASM);
                assertThat(j.session().sha256()).isEqualTo(app.model.sha256());
            });
        } finally {
            driver.quit();
        }
    }

    @Test
    void aWorkerUnderSeleniumIsSaidAsUnseenNeverAsAbsent() throws Exception {
        WebDriver driver = chrome(true);
        try (ObservedApp app = new ObservedApp(dir); ObservedPage o = Accelbridge.observe(driver)) {
            driver.get(app.url("/threaded"));
            WebDriverWait wait = new WebDriverWait(driver, Duration.ofSeconds(60));
            wait.until(d -> d.findElement(By.id("run")).isEnabled());
            driver.findElement(By.id("run")).click();
            wait.until(d -> d.findElement(By.tagName("body")).getAttribute("data-done") != null);
            var reading = o.reading();
            assertThat(reading.realms()).allSatisfy(r -> assertThat(r.sessions()).as("the session is the worker's").isEmpty());
            assertThat(reading.unseen()).singleElement().satisfies(u -> {
                assertThat(u.kind()).isEqualTo("worker");
                assertThat(u.url()).isEqualTo(app.url("/work.mjs"));
                assertThat(u.describe()).contains("unseen");
            });
        } finally {
            driver.quit();
        }
    }

    @Test
    void aSessionWithoutBiDiIsRefusedSayingHowToMakeOne() {
        WebDriver driver = chrome(false);
        try {
            assertThatThrownBy(() -> Accelbridge.observe(driver)).isInstanceOf(AccelbridgeException.class)
                    .hasMessageContaining("no BiDi connection");
        } finally {
            driver.quit();
        }
    }
}
