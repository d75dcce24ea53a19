package dev.accelbridge.browser.observe;

import com.microsoft.playwright.Page;
import com.microsoft.playwright.PlaywrightException;
import dev.accelbridge.browser.launch.BrowserDiscovery;
import dev.accelbridge.browser.launch.InstalledBrowser;
import dev.accelbridge.browser.launch.PlaywrightVisit;
import dev.accelbridge.core.BackendUnavailableException;
import dev.accelbridge.core.Untrusted;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Opens a user's app in a browser with the observer installed before any of its scripts, does the steps, and watches
 * until the app is done ({@link VisitOptions}): what every document of the visit made, each session with the step that
 * triggered it and its model's bytes read while its document was there (a navigation away loses nothing already seen).
 * Bounded: a page that never answers is closed from outside at the timeout and a grace ({@link #grace}). What it reads
 * is kept by {@link VisitReadings}.
 */
@dev.accelbridge.core.PublicApi
public final class AppObserver {
    /** How often the page's report is read while the app works. */
    public static final Duration POLL = Duration.ofMillis(250);
    /**
     * What a visit saw, and what it saw and could not observe; its models are kept under {@code models}, which the caller
     * deletes once the sessions are judged.
     */
    public record Visit(List<VisitReadings.Document> documents, String browserVersion, boolean timedOut, List<String> notes, List<Observed.Unseen> unseen,
                 Path models, Map<String, ModelSources.Source> sources) {
        /** Where the bytes hashing to {@code sha256} came from, as the network layer showed them. */
        public Optional<ModelSources.Source> source(String sha256) {
            return Optional.ofNullable(sha256 == null ? null : sources.get(sha256));
        }
    }

    private final VisitOptions options;
    private final List<String> notes = new CopyOnWriteArrayList<>();
    private final VisitReadings readings;
    private long deadline;
    private boolean timedOut;

    private final Path models;
    private ModelSources sources;
    private PageObserver observer;

    private AppObserver(VisitOptions options, Path models) {
        this.options = options;
        this.models = models;
        this.readings = new VisitReadings(models, options.keep());
    }

    /** Visits the app; its models are kept on disk under {@code models}. */
    public static Visit visit(VisitOptions options, Path models) {
        return new AppObserver(options, models).run();
    }

    private Visit run() {
        InstalledBrowser installed = BrowserDiscovery.find(options.browser()).orElseThrow(() -> new BackendUnavailableException(
                options.browser().id() + " is not installed", "install it (./setup.sh does) or choose another with --browser"));
        // the adapter's search (every hardware flag set, when asked for the GPU's) is before the visit's time starts
        ObserverBrowser.Opened opened = ObserverBrowser.open(options.browser(), options.adapter());
        opened.refused().ifPresent(this::say); // the app runs on, its WebGPU on what the last set gave
        deadline = System.nanoTime() + options.timeout().toNanos();
        ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "accelbridge-observe-watchdog");
            t.setDaemon(true);
            return t;
        });
        String version = installed.version();
        try (PlaywrightVisit browser = opened.visit()) {
            version = browser.browser().version();
            // a page that never answers blocks Playwright's calls: past the timeout and a grace, its browser is ended
            watchdog.schedule(() -> {
                notes.add("the page did not answer within the timeout: its browser was closed");
                browser.kill();
            }, options.timeout().plus(grace(options.timeout())).toMillis(), TimeUnit.MILLISECONDS);
            Page page = browser.page();
            page.onPageError(e -> say("the page threw: " + e));
            // the browser is this visit's own: what is kept the browser writes to disk itself
            observer = PageObserver.install(page, options.keep(), PageObserver.Handover.DOWNLOADS);
            sources = ModelSources.watch(page);
            readings.stepDone("open");
            act("open", () -> page.navigate(options.url().toString(), new Page.NavigateOptions().setTimeout(remainingMs())));
            for (AppStep s : options.steps()) {
                settle(page, observer); // the page is quiet before each step
                act(s.label(), () -> perform(page, s, remainingMs()));
                readings.stepDone(s.label());
            }
            // the end: the mark and a quiet after it (a session is its step's by when it was made, not when it was read),
            // or a quiet alone
            options.until().ifPresentOrElse(u -> {
                act("until " + u, () -> page.waitForSelector(u, new Page.WaitForSelectorOptions()
                        .setState(com.microsoft.playwright.options.WaitForSelectorState.ATTACHED).setTimeout(remainingMs())));
                settle(page, observer);
            }, () -> settle(page, observer));
            return visit(version, timedOut);
        } catch (PlaywrightException e) {
            say("the browser went away: " + e.getMessage());
            sources = null; // its responses went with it
            return visit(version, true);
        } finally {
            watchdog.shutdownNow();
        }
    }

    private Visit visit(String browserVersion, boolean ended) {
        if (observer != null && observer.refusedDownloads() > 0) {
            say("the page's own downloads were refused (" + observer.refusedDownloads() + "): the browser observe drives keeps only "
                    + "what it judges");
        }
        if (readings.refusedReadings() > 0) {
            say("the page made more realms (documents, frames, workers) than the " + VisitReadings.MAX_REALMS + " a visit keeps: "
                    + readings.refusedReadings() + " readings of others were not kept");
        }
        // decided once over every realm read in the visit: a worker the page started is answered for by any reading of it
        return new Visit(readings.documents(), browserVersion, ended, List.copyOf(notes), readings.unseen(), models,
                readings.sources(sources));
    }

    /** How long past its timeout a page that does not answer is given: 10 s, or half the timeout when that is shorter. */
    public static Duration grace(Duration timeout) {
        Duration half = timeout.dividedBy(2);
        return half.compareTo(Duration.ofSeconds(10)) < 0 ? half : Duration.ofSeconds(10);
    }

    private static void perform(Page page, AppStep s, double timeoutMs) {
        if (s instanceof AppStep.Click c) {
            page.locator(c.selector()).click(new com.microsoft.playwright.Locator.ClickOptions().setTimeout(timeoutMs));
        } else if (s instanceof AppStep.Fill f) {
            page.locator(f.selector()).fill(f.text(), new com.microsoft.playwright.Locator.FillOptions().setTimeout(timeoutMs));
        }
    }

    /** Does {@code a}; a step that cannot be done in the time left is said, and the visit goes on to what it saw. */
    private void act(String step, Runnable a) {
        if (remainingMs() <= 1) {
            timedOut = true;
            return;
        }
        try {
            a.run();
        } catch (com.microsoft.playwright.TimeoutError e) {
            timedOut = true;
            say("'" + step + "' did not finish within the timeout");
        } catch (PlaywrightException e) {
            say("'" + step + "' failed: " + e.getMessage());
        }
    }

    /** Reads the page's report until no session was made or run for the idle time, or the timeout. */
    private void settle(Page page, PageObserver observer) {
        long quietSince = System.nanoTime();
        String last = null;
        while (true) {
            String now = readings.read(observer, page::url);
            if (!now.equals(last)) {
                last = now;
                quietSince = System.nanoTime();
            }
            if (System.nanoTime() - quietSince >= options.idle().toNanos()) {
                return;
            }
            if (remainingMs() <= 1) {
                timedOut = true;
                return;
            }
            try {
                page.waitForTimeout(POLL.toMillis());
            } catch (PlaywrightException e) {
                say("the page could not be waited on: " + e.getMessage());
                return;
            }
        }
    }

    private long remainingMs() {
        return Math.max(1, (deadline - System.nanoTime()) / 1_000_000);
    }

    private void say(String line) {
        if (notes.size() < 50) {
            notes.add(Untrusted.bounded(Untrusted.oneLine(line), 300));
        }
    }
}
