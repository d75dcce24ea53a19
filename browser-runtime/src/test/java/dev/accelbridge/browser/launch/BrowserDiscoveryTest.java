package dev.accelbridge.browser.launch;

import dev.accelbridge.core.BrowserKind;

import org.junit.jupiter.api.Test;

import java.nio.file.Files;

import static dev.accelbridge.browser.launch.LauncherTestSupport.requireInstalled;
import static org.assertj.core.api.Assertions.assertThat;

class BrowserDiscoveryTest {
    @Test
    void findsChromiumWithItsVersion() {
        InstalledBrowser chromium = requireInstalled(BrowserKind.CHROMIUM);
        assertThat(chromium.version()).matches("\\d+\\.\\d+\\.\\d+\\.\\d+");
        assertThat(Files.isExecutable(chromium.executable())).isTrue();
        assertThat(BrowserDiscovery.findAll()).contains(chromium);
        assertThat(BrowserDiscovery.find(BrowserKind.CHROMIUM)).containsSame(chromium); // looked up once
    }

    @Test
    void findsTheHeadlessShellFromTheNpmPackage() {
        InstalledBrowser shell = requireInstalled(BrowserKind.CHROMIUM_SHELL);
        assertThat(shell.executable().toString()).contains("chromium-shell/153.");
        assertThat(shell.version()).startsWith("153.");
    }

    @Test
    void parsesVersionLines() {
        assertThat(VersionProbe.parseVersion("Chromium 156.0.8078.79 ")).contains("156.0.8078.79");
        assertThat(VersionProbe.parseVersion("Mozilla Firefox 153.7.0esr")).contains("153.7.0esr");
        assertThat(VersionProbe.parseVersion("ChromeDriver 156.0.8078.79 (a21ce95c-refs/branch-heads/8078@{#1704})"))
                .contains("156.0.8078.79");
        assertThat(VersionProbe.parseVersion("no version here")).isEmpty();
    }
}
