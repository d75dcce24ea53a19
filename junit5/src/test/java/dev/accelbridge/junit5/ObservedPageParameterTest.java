package dev.accelbridge.junit5;

import com.microsoft.playwright.Page;
import dev.accelbridge.api.ObservedPage;
import dev.accelbridge.browser.observe.ObservedApp;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.core.BackendId;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;

import static dev.accelbridge.junit5.AccelbridgeAssertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** A user's test on the extension: its page and its observation as parameters, its app driven by a click. */
@RequiresBrowser
@ExtendWith(AccelbridgeExtension.class)
class ObservedPageParameterTest {
    @TempDir
    Path dir;

    @Test
    void theAppsSessionsMatchNative(Page page, ObservedPage observed) throws Exception {
        try (ObservedApp app = new ObservedApp(dir)) {
            app.drive(page, "/");
            assertThat(observed).allSessionsMatchNative().matchesNativeOn(BackendId.WASM).modelMatchesNative(app.model.sha256())
                    .everyRunJudged();
            assertThatThrownBy(() -> assertThat(observed).matchesNativeOn(BackendId.WEBGPU))
                    .hasMessageContaining("the page made no such session");
            page.navigate(app.url("/empty"));
            assertThatThrownBy(() -> assertThat(observed).allSessionsMatchNative()).as("an app that made none is no pass")
                    .hasMessageContaining("made no such session");
            assertThatThrownBy(() -> assertThat(observed).everyRunJudged()).hasMessageContaining("the page made no session");
        }
    }

    @Test
    void aSessionWithRunsNotJudgedIsNotCoveredWhateverItsStatus(Page page, ObservedPage observed) throws Exception {
        try (ObservedApp app = new ObservedApp(dir)) {
            page.navigate(app.url("/"));
            page.waitForSelector("#run:enabled");
            // a session made and never run: nothing of it is judged
            assertThatThrownBy(() -> assertThat(observed).everyRunJudged()).hasMessageContaining("not judged: the page did not run it");
        }
    }
}
