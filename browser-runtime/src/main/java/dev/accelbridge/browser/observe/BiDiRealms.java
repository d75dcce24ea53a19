package dev.accelbridge.browser.observe;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.Untrusted;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.WebDriver;
import org.openqa.selenium.bidi.HasBiDi;
import org.openqa.selenium.bidi.module.Script;

import java.util.List;

/**
 * A Selenium WebDriver's page, the observer put in as a WebDriver BiDi preload script: its document only (BiDi's preload
 * scripts reach windows, not workers), so every worker it starts is said as unseen.
 */
final class BiDiRealms implements Realms {
    private final WebDriver driver;
    private final JavascriptExecutor js;

    BiDiRealms(WebDriver driver, String script) {
        if (!(driver instanceof HasBiDi bidi) || bidi.maybeGetBiDi().isEmpty()) {
            throw new AccelbridgeException("this WebDriver session has no BiDi connection, so nothing can be put into its pages "
                    + "before their scripts", "make the session with BiDi on (ChromeOptions.enableBiDi(), FirefoxOptions.enableBiDi())");
        }
        // the preload script stays the browser's once added; the module is only the connection's listener, closed at once
        try (Script s = new Script(driver)) {
            s.addPreloadScript("() => {\n" + script + "\n}");
        }
        this.driver = driver;
        this.js = (JavascriptExecutor) driver;
    }

    @Override
    public String browserVersion() {
        return driver instanceof org.openqa.selenium.HasCapabilities c ? c.getCapabilities().getBrowserVersion() : null;
    }

    @Override
    public List<Realm> realms() {
        return List.of(Realms.of(new Observed.Realm(Observed.Realm.Kind.PAGE, Untrusted.bounded(String.valueOf(driver.getCurrentUrl()), 500)),
                () -> js.executeAsyncScript("const done = arguments[arguments.length - 1]; const o = " + KEY + ";"
                        + " if (!o) { done(null); } else { (async () => { try { done(await o.reportJson()); } catch (e) { done(null); } })(); }"),
                expression -> js.executeScript("const o = " + KEY + "; return o ? " + expression + " : null;")));
    }

    @Override
    public List<Observed.Unseen> unentered() {
        return List.of();
    }

    @Override
    public boolean entersWorkers() {
        return false;
    }
}
