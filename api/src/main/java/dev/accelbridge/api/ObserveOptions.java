package dev.accelbridge.api;

import dev.accelbridge.browser.launch.WebGpuAdapter;
import dev.accelbridge.browser.observe.AppStep;
import dev.accelbridge.browser.observe.VisitOptions;
import dev.accelbridge.browser.observe.PageObserver;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.Seconds;
import dev.accelbridge.run.Targets;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * How a user's app is observed ({@link AccelbridgeSession#observe}): the page to open, what to do in it, and when the app
 * is done. The app is done when the selector {@code until} is in the page (when given), after the steps, and once no
 * session was made or run for {@code idle}; never later than {@code timeout} after the page was asked for.
 *
 * @param url     the app's page: http(s), or a file the browser opens
 * @param steps   what to do once it has loaded, in order
 * @param until   a selector whose element, once in the page (visible or not), says the app has finished (empty: the idle
 *                time alone says it)
 * @param idle    how long no session may be made or run before the app is taken as done (default 3 s)
 * @param timeout the most the whole observation may take (default 120 s)
 * @param browser the browser (Chromium or the headless shell: the observer goes in through Playwright, which drives them)
 * @param adapter the WebGPU adapter its pages get, decided as for a run's lanes
 * @param keep    the most bytes kept on disk from one visit to judge its sessions: models, their external data, tensors
 *                over 1 MiB (default {@link dev.accelbridge.browser.observe.PageObserver#DEFAULT_KEEP}, 4 GiB); what is past
 *                it is not kept, and its row says so
 * @param replay  where each session the app made is replayed as a case once observed (its model, the inputs of its first
 *                run with every input's values), its rows added to the observation's run: the plan's {@link Targets} group
 *                (backends, browsers, engines, native EPs); empty: no replay
 */
public record ObserveOptions(URI url, List<AppStep> steps, Optional<String> until, Duration idle, Duration timeout,
                             BrowserKind browser, WebGpuAdapter adapter, long keep, Optional<Targets> replay) {
    /** Checks the options: a page to open, times that fit, a browser the observer can go into. */
    public ObserveOptions {
        if (url == null || url.getScheme() == null || !List.of("http", "https", "file").contains(url.getScheme())) {
            throw new AccelbridgeException("The app's page must be an http(s) or file URL, got " + url,
                    "e.g. accelbridge observe http://localhost:5173/");
        }
        steps = List.copyOf(steps);
        replay = replay == null ? Optional.empty() : replay;
        until = until == null ? Optional.empty() : until.filter(u -> !u.isBlank());
        if (idle.isNegative() || idle.isZero() || timeout.compareTo(idle) <= 0) {
            throw new AccelbridgeException("The idle time must be above 0 and below the timeout, got idle " + Seconds.of(idle)
                    + " s, timeout " + Seconds.of(timeout) + " s", "e.g. --idle 3 --timeout 120");
        }
        if (keep < 0) {
            throw new AccelbridgeException("The model budget must be 0 or more bytes, got " + keep, "e.g. --keep 4GiB");
        }
        if (browser != BrowserKind.CHROMIUM && browser != BrowserKind.CHROMIUM_SHELL) {
            throw new AccelbridgeException("An app is observed in chromium or chromium-shell, not " + browser.id(),
                    "use --browser chromium (Firefox and WebKit: docs/observe.md says why not yet)");
        }
    }

    /** What the visit itself does (browser-runtime's part: the page, its steps, when it is done, the browser). */
    public VisitOptions visit() {
        return new VisitOptions(url, steps, until, idle, timeout, browser, adapter, keep);
    }

    /** A builder: only the URL is needed. */
    public static Builder builder(URI url) {
        return new Builder(url);
    }

    /** Builds {@link ObserveOptions}. */
    public static final class Builder {
        private final URI url;
        private final List<AppStep> steps = new ArrayList<>();
        private String until;
        private Duration idle = Duration.ofSeconds(3);
        private Duration timeout = Duration.ofSeconds(120);
        private BrowserKind browser = BrowserKind.CHROMIUM;
        private WebGpuAdapter adapter = WebGpuAdapter.AUTO;
        private long keep = PageObserver.DEFAULT_KEEP;
        private Targets replay;

        private Builder(URI url) {
            this.url = url;
        }

        /** Adds a step. */
        public Builder addStep(AppStep step) {
            steps.add(step);
            return this;
        }

        /** The selector that says the app is done. */
        public Builder optUntil(String selector) {
            this.until = selector;
            return this;
        }

        /** How long without a session made or run counts as done. */
        public Builder optIdle(Duration idle) {
            this.idle = idle;
            return this;
        }

        /** The most the observation may take. */
        public Builder optTimeout(Duration timeout) {
            this.timeout = timeout;
            return this;
        }

        /** The browser. */
        public Builder optBrowser(BrowserKind browser) {
            this.browser = browser;
            return this;
        }

        /** The WebGPU adapter. */
        public Builder optAdapter(WebGpuAdapter adapter) {
            this.adapter = adapter;
            return this;
        }

        /** Where each session is replayed once observed. */
        public Builder optReplay(Targets targets) {
            this.replay = targets;
            return this;
        }

        /** The most model bytes kept on disk from the visit. */
        public Builder optKeep(long bytes) {
            this.keep = bytes;
            return this;
        }

        /** The options. */
        public ObserveOptions build() {
            return new ObserveOptions(url, steps, Optional.ofNullable(until), idle, timeout, browser, adapter, keep, Optional.ofNullable(replay));
        }
    }
}
