package dev.accelbridge.browser.launch;

import com.microsoft.playwright.PlaywrightException;
import dev.accelbridge.browser.observe.ObserverBrowser;
import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.core.BrowserKind;
import org.junit.jupiter.api.Test;

import java.util.Arrays;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The browser a caller drives itself (the observer's) is launched as every Playwright lane's: the command line
 * {@link ChromiumFlags} gives for its options, a fresh profile of its own, its process found by it; {@link PlaywrightVisit#kill}
 * ends it from another thread and a Playwright call waiting on its page fails rather than hangs. A visit that closed
 * cleanly hands Playwright's driver to the next.
 */
@RequiresBrowser
class PlaywrightVisitTest {
    @Test
    void theObserversBrowserRunsTheLanesCommandLineAndIsKilledFromAnotherThread() throws Exception {
        LaunchOptions options = ObserverBrowser.options(BrowserKind.CHROMIUM, WebGpuAdapter.SOFTWARE);
        try (PlaywrightVisit visit = PlaywrightVisit.open(options)) {
            ProcessHandle browser = visit.process().orElseThrow(() -> new AssertionError("the browser's process was not found by its profile"));
            List<String> args = Arrays.asList(browser.info().arguments().orElseThrow());
            List<String> wanted = ChromiumFlags.forLaunch(visit.browser().kind(), DriverKind.PLAYWRIGHT, options).stream()
                    .filter(f -> !f.startsWith("--disable-features") && !f.startsWith("--enable-features")).toList();
            assertThat(args).as("the lanes' command line, with the software adapter's flags").containsAll(wanted)
                    .containsAll(ChromiumFlags.SOFTWARE_WEBGPU);
            assertThat(args).anyMatch(a -> a.startsWith("--user-data-dir="));
            assertThat(visit.page().evaluate("1 + 1")).isEqualTo(2);

            Thread killer = new Thread(() -> {
                try {
                    Thread.sleep(1000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                visit.kill();
            });
            killer.start();
            assertThatThrownBy(() -> visit.page().evaluate("new Promise(() => {})")).as("a call on a page that never answers")
                    .isInstanceOf(PlaywrightException.class);
            killer.join();
            assertThat(ended(browser, java.time.Duration.ofSeconds(15))).as("the browser's main process ended").isTrue();
        }
    }

    @Test
    void aVisitThatClosedCleanlyHandsItsDriverToTheNextAndOneThatWasKilledDoesNot() throws Exception {
        LaunchOptions options = ObserverBrowser.options(BrowserKind.CHROMIUM, WebGpuAdapter.SOFTWARE);
        long first;
        try (PlaywrightVisit visit = PlaywrightVisit.open(options)) {
            first = driverOf(visit);
        }
        long second;
        try (PlaywrightVisit visit = PlaywrightVisit.open(options)) {
            second = driverOf(visit);
            assertThat(second).as("the driver the first visit handed back").isEqualTo(first);
            visit.kill();
        }
        long third;
        try (PlaywrightVisit visit = PlaywrightVisit.open(options)) {
            third = driverOf(visit);
            assertThat(third).as("a killed visit's driver is closed, not handed on").isNotEqualTo(second);
            assertThat(visit.page().evaluate("1 + 1")).isEqualTo(2);
        }
        // a driver that ended while no visit held it: the next visit starts a new one rather than failing
        ProcessHandle.of(third).ifPresent(ProcessHandle::destroyForcibly);
        assertThat(ended(ProcessHandle.of(third).orElse(null), java.time.Duration.ofSeconds(10))).isTrue();
        try (PlaywrightVisit visit = PlaywrightVisit.open(options)) {
            assertThat(driverOf(visit)).isNotEqualTo(third);
            assertThat(visit.page().evaluate("1 + 1")).isEqualTo(2);
        }
    }

    /** The process that started the visit's browser: Playwright's driver. */
    private static long driverOf(PlaywrightVisit visit) {
        return visit.process().flatMap(ProcessHandle::parent).map(ProcessHandle::pid)
                .orElseThrow(() -> new AssertionError("the browser's process or its parent was not found"));
    }

    /**
     * Whether {@code p} ends within {@code wait}: gone, or a zombie its parent (Playwright's driver, not this JVM) has
     * not reaped yet, which {@link ProcessHandle#isAlive} still counts as alive.
     */
    private static boolean ended(ProcessHandle p, java.time.Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (System.nanoTime() < deadline) {
            if (p == null || !p.isAlive()) {
                return true;
            }
            try {
                String stat = java.nio.file.Files.readString(java.nio.file.Path.of("/proc/" + p.pid() + "/stat"));
                if (stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z")) {
                    return true;
                }
            } catch (java.io.IOException e) {
                return true; // gone between the two reads
            }
            Thread.sleep(100);
        }
        return false;
    }
}
