package dev.accelbridge.bridge.run;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserSpec;
import dev.accelbridge.core.Limits;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Precision;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

/** What makes a plan impossible, each refusal naming its option and the fix: the checks {@link RunPlan.Builder#build()} makes. */
final class PlanChecks {
    private PlanChecks() {
    }

    /** The options' own ranges. */
    static void options(List<BackendId> backends, Duration caseTimeout, Integer threads, List<Precision> precisions,
                        boolean batchSizesGiven, List<Integer> batchSizes) {
        if (backends == null || backends.isEmpty()) {
            throw new AccelbridgeException("No backend to run on", "give --backends with at least one of: " + BackendId.validIds());
        }
        if (caseTimeout == null || caseTimeout.isZero() || caseTimeout.isNegative()) {
            throw new AccelbridgeException("--timeout must be positive, got " + (caseTimeout == null ? "none" : caseTimeout.toSeconds() + " s"),
                    "give the seconds one case may take, e.g. --timeout 180");
        }
        if (threads != null && threads < 1) {
            throw new AccelbridgeException("--threads must be at least 1, got " + threads, "e.g. --threads 2");
        }
        if (precisions == null || precisions.isEmpty()) {
            throw new AccelbridgeException("--precision names no precision", "give --precision fp32,fp16,int8 or a part of it");
        }
        if (batchSizesGiven && batchSizes.isEmpty() || batchSizes.stream().anyMatch(b -> b == null || b < 1 || b > Limits.MAX_BATCH)) {
            throw new AccelbridgeException("--batch-sizes must be whole numbers from 1 to " + Limits.MAX_BATCH + ", got " + batchSizes,
                    "e.g. --batch-sizes 1,4,16");
        }
    }

    /** Something to run, somewhere to run it. */
    static void work(List<ModelFamily> suites, List<Path> userModels, List<BackendId> backends, List<BrowserSpec> browsers) {
        if (suites.contains(ModelFamily.OTHER)) {
            throw new AccelbridgeException("'other' is not a built-in suite", "use text, vision, audio or ops");
        }
        if (suites.isEmpty() && userModels.isEmpty()) {
            throw new AccelbridgeException("Nothing to run: no suite and no --model", "give --suites text,vision,audio or --model PATH");
        }
        if (backends.stream().anyMatch(BackendId::isBrowser) && (browsers == null || browsers.isEmpty())) {
            throw new AccelbridgeException("Browser backends were asked for but no browser", "give --browser chromium");
        }
    }

    /**
     * A Playwright browser server is where Playwright runs browsers: not with a Grid or another driver.
     *
     * @throws AccelbridgeException naming the options that cannot go together
     */
    static void remote(java.net.URI grid, dev.accelbridge.browser.launch.DriverKind driver, RemoteBrowsers remote) {
        if (remote.connect().isPresent() && (grid != null || driver != dev.accelbridge.browser.launch.DriverKind.PLAYWRIGHT)) {
            throw new dev.accelbridge.core.AccelbridgeException("--connect runs browsers on a Playwright server; it cannot go with "
                    + (grid != null ? "--grid" : "--driver " + driver.id()), "give --connect or --grid, not both");
        }
        if (!remote.gridCapabilities().isEmpty() && grid == null) {
            throw new dev.accelbridge.core.AccelbridgeException("--grid-capability routes a Selenium Grid's sessions, and no --grid "
                    + "is given", "give --grid URL, or drop --grid-capability");
        }
    }
}
