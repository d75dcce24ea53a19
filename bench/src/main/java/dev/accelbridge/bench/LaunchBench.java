package dev.accelbridge.bench;

import dev.accelbridge.browser.launch.ReportPage;
import dev.accelbridge.browser.launch.BrowserDiscovery;
import dev.accelbridge.browser.launch.BrowserHandle;
import dev.accelbridge.browser.launch.BrowserLauncher;
import dev.accelbridge.browser.launch.BrowserLaunchers;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.LaunchOptions;
import dev.accelbridge.browser.launch.PlaywrightLauncher;

import dev.accelbridge.core.BrowserKind;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Benchmark (not a test): launch → page loaded → page's report received, per browser and driver, plus the
 * first Playwright launch (which includes starting Playwright's node driver). Run with
 * {@code bench/launch/run.sh [rounds]}.
 */
public final class LaunchBench {
    private LaunchBench() {
    }

    public static void main(String[] args) throws Exception {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        record Case(BrowserKind browser, DriverKind driver) {
        }
        List<Case> cases = new ArrayList<>();
        for (BrowserKind b : List.of(BrowserKind.CHROMIUM, BrowserKind.CHROMIUM_SHELL, BrowserKind.FIREFOX)) {
            if (BrowserDiscovery.find(b).isEmpty()) {
                System.out.printf("%-15s not installed%n", b);
                continue;
            }
            for (DriverKind d : List.of(DriverKind.PLAYWRIGHT, DriverKind.SELENIUM, DriverKind.PROCESS)) {
                boolean driveable = b == BrowserKind.FIREFOX ? d == DriverKind.PROCESS
                        : !(b == BrowserKind.CHROMIUM_SHELL && d == DriverKind.SELENIUM);
                if (driveable) {
                    cases.add(new Case(b, d));
                }
            }
        }
        try (ReportPage page = new ReportPage(); PlaywrightLauncher pw = new PlaywrightLauncher()) {
            long t0 = System.nanoTime();
            URI first = page.newUrl();
            try (BrowserHandle h = pw.launch(LaunchOptions.builder().build(), first)) {
                page.await(first, Duration.ofSeconds(60));
            }
            System.out.printf("first Playwright launch incl. driver start: %.0f ms%n", (System.nanoTime() - t0) / 1e6);
            System.out.printf("%-15s %-11s %s%n", "browser", "driver", "launch->report ms (each round), launch->close ms");
            for (Case c : cases) {
                BrowserLauncher l = c.driver() == DriverKind.PLAYWRIGHT ? pw : BrowserLaunchers.forDriver(c.driver());
                List<String> times = new ArrayList<>();
                List<String> closes = new ArrayList<>();
                for (int i = 0; i < rounds; i++) {
                    URI url = page.newUrl();
                    long s = System.nanoTime();
                    BrowserHandle h = l.launch(LaunchOptions.builder().browser(c.browser()).driver(c.driver()).build(), url);
                    page.await(url, Duration.ofSeconds(60));
                    times.add(String.format("%.0f", (System.nanoTime() - s) / 1e6));
                    long cs = System.nanoTime();
                    h.close();
                    closes.add(String.format("%.0f", (System.nanoTime() - cs) / 1e6));
                }
                System.out.printf("%-15s %-11s %s, close %s%n", c.browser(), c.driver(), times, closes);
            }
        }
    }
}
