package dev.accelbridge.api;

import com.microsoft.playwright.Browser;
import com.microsoft.playwright.Locator;
import com.microsoft.playwright.Page;
import com.microsoft.playwright.Playwright;
import com.microsoft.playwright.options.WaitForSelectorState;
import dev.accelbridge.browser.observe.ObservedApp;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.browser.testing.TestChromium;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Status;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A Playwright test of the user's kind: it drives the app (navigates, clicks its button) and asks Accelbridge what the app
 * ran and whether it was right. Each session is judged against native CPU on the inputs the page fed; a page that ran
 * none has no verdict to give.
 */
@RequiresBrowser
class ObservedPageTest {
    @TempDir
    Path dir;

    @Test
    void theAppsSessionIsJudgedAgainstNativeCpu() throws Exception {
        try (ObservedApp app = new ObservedApp(dir); Playwright pw = Playwright.create(); Browser browser = TestChromium.launch(pw)) {
            Page page = browser.newPage();
            try (ObservedPage o = Accelbridge.observe(page)) {
                page.navigate(app.url("/"));
                page.locator("#run:enabled").click(new Locator.ClickOptions().setTimeout(60_000));
                page.waitForSelector("body[data-done]", new Page.WaitForSelectorOptions().setState(WaitForSelectorState.ATTACHED));

                List<ObservedVerdict> verdicts = o.verdicts();
                assertThat(verdicts).hasSize(1);
                assertThat(verdicts.get(0)).isInstanceOfSatisfying(ObservedVerdict.Judged.class, j -> {
                    assertThat(j.status()).isEqualTo(Status.PASSED);
                    assertThat(j.backend()).isEqualTo(BackendId.WASM);
                    assertThat(j.parity().within()).isTrue();
                    assertThat(j.parity().maxAbsErr()).isLessThan(1e-5);
                    assertThat(j.session().sha256()).isEqualTo(app.model.sha256());
                });

                page.navigate(app.url("/empty"));
                assertThat(o.verdicts()).as("a document without a session").isEmpty();
            }
        }
    }
}
