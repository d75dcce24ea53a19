package dev.accelbridge.browser.launch;

import org.junit.jupiter.api.Test;

import java.net.URI;

import static org.assertj.core.api.Assertions.assertThat;

/** A Playwright server's refusals, explained: the words a real server of another version answers, made one short line. */
class PlaywrightServerFailureTest {
    /** What a playwright-core 1.56.1 run-server answered this client's 1.62 connect, as captured. */
    static final String MISMATCH = "Error {\n  message='WebSocket error: ws://127.0.0.1:3998/ 428 Precondition Required\n"
            + "╔════════════════════════════════════════════════════╗\n║ Playwright version mismatch:                       ║\n"
            + "║   - server version: v1.56                          ║\n║   - client version: v1.62                          ║\n"
            + "║                                                    ║\n║ If you are using VSCode extension, restart VSCode. ║\n"
            + "╚════════════════════════════════════════════════════╝\n";

    @Test
    void aServerOfAnotherVersionIsNamedWithTheCommandThatStartsTheRightOne() {
        BrowserLaunchException e = PlaywrightServerFailure.of(URI.create("ws://10.0.0.7:3000/"),
                new com.microsoft.playwright.PlaywrightException(MISMATCH));
        assertThat(e.getMessage()).contains("runs Playwright 1.56 and this client", "needs both the same version").doesNotContain("║");
        assertThat(e.getMessage().length()).isLessThan(200);
        assertThat(e.fix()).contains("run-server --unsafe");
    }

    @Test
    void aRefusalThatMerelyContains428IsNotAVersionMismatch() {
        // found on a full run: a refusal was called "another version" because "428" stood somewhere in its text
        BrowserLaunchException e = PlaywrightServerFailure.of(URI.create("ws://10.0.0.7:3000/"),
                new com.microsoft.playwright.PlaywrightException("WebSocket error: connect ECONNREFUSED 10.0.0.7:3000 (pid 4281)"));
        assertThat(e.getMessage()).contains("gave no browser", "ECONNREFUSED").doesNotContain("another version");
    }

    @Test
    void aCertificateRefusedMeansTheServerDidNotTakeTheFlags() {
        BrowserLaunchException e = PlaywrightServerFailure.of(URI.create("ws://10.0.0.7:3000/"),
                new com.microsoft.playwright.PlaywrightException("page.navigate: net::ERR_CERT_AUTHORITY_INVALID at https://10.0.0.5:8765/"));
        assertThat(e.getMessage()).contains("refused the bridge's certificate", "did not take Accelbridge's launch flags");
        assertThat(e.fix()).contains("--unsafe");
    }

    @Test
    void playwrightsErrorBlockIsNamedByItsMessageNotItsFirstLine() {
        // found on a full run: the refusal read "gave no browser: Error {", Playwright's block opening its own message
        BrowserLaunchException e = PlaywrightServerFailure.of(URI.create("ws://10.0.0.7:3000/"),
                new com.microsoft.playwright.PlaywrightException("Error {\n  message='Target page, context or browser has been closed\n"
                        + "Browser logs:\n...'\n  name='Error\n  stack='Error: Target page ...\n}"));
        assertThat(e.getMessage()).contains("gave no browser: Target page, context or browser has been closed").doesNotContain("Error {");
    }
}
