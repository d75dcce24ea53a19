package dev.accelbridge.api;

import com.microsoft.playwright.Page;
import com.microsoft.playwright.PlaywrightException;
import dev.accelbridge.browser.launch.BrowserDiscovery;
import dev.accelbridge.browser.launch.InstalledBrowser;
import dev.accelbridge.browser.launch.PlaywrightVisit;
import dev.accelbridge.browser.observe.ModelSources;
import dev.accelbridge.browser.observe.Observed;
import dev.accelbridge.browser.observe.ObserverBrowser;
import dev.accelbridge.browser.observe.PageObserver;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendUnavailableException;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Untrusted;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * Opens a user's app in a browser with the observer installed before any of its scripts, does the steps, and watches
 * until the app is done ({@link ObserveOptions}): what every document of the visit made, each session with the step that
 * triggered it and its model's bytes read while its document was there (a navigation away loses nothing already seen).
 * Bounded: a page that never answers is closed from outside at the timeout and a grace ({@link #grace}).
 */
final class AppObserver {
    /** How often the page's report is read while the app works. */
    static final Duration POLL = Duration.ofMillis(250);
    /**
     * The most realms (documents, frames, workers) one visit keeps, counted here: found when tried, a page that reloads
     * itself after 64 sessions, or one that claims a new document on every reading, made thousands of rows and ran the
     * JVM out of memory, since the observer's bounds hold per document and a page makes as many as it likes.
     */
    static final int MAX_REALMS = 64;
    /** The most sessions one visit keeps across its realms (each realm keeps at most 64); more are counted. */
    static final int MAX_SESSIONS = 256;

    /**
     * One realm of the visit as last seen (a document of the page, a frame, a worker), its sessions' triggering steps and
     * their models kept on disk; {@code url} the page's URL when it was first seen.
     */
    record Document(Observed seen, Map<Integer, String> stepOf, Map<Integer, PageObserver.KeptModel> models, Map<Integer, Path> tensors,
                    String url) {
        /** The realm and its document: a navigation, or another worker from the same script, is another. */
        String key() {
            return seen.realm().kind() + " " + seen.realm().url() + " " + seen.document();
        }

        /** A tensor of this document's runs with its values: from the report, or from the file its held values went to. */
        Optional<NamedTensor> values(Observed.Tensor t) {
            return t.tensor(id -> Optional.ofNullable(tensors.get(id)));
        }
    }

    /**
     * What a visit saw, and what it saw and could not observe; its models are kept under {@code models}, which the caller
     * deletes once the sessions are judged.
     */
    record Visit(List<Document> documents, String browserVersion, boolean timedOut, List<String> notes, List<Observed.Unseen> unseen,
                 Path models, Map<String, ModelSources.Source> sources) {
        /** Where the bytes hashing to {@code sha256} came from, as the network layer showed them. */
        Optional<ModelSources.Source> source(String sha256) {
            return Optional.ofNullable(sha256 == null ? null : sources.get(sha256));
        }
    }

    private final ObserveOptions options;
    private final Map<String, Document> documents = new LinkedHashMap<>();
    /** Readings of realms past {@link #MAX_REALMS}, not kept. */
    private long refusedReadings;
    private final java.util.Set<Observed.Unseen> unentered = new java.util.LinkedHashSet<>();
    private boolean entersWorkers = true;
    private final List<String> notes = new CopyOnWriteArrayList<>();
    private long modelBytes;
    /** The steps done so far, each with when it was done (the page's opening with when it was asked for). */
    private final List<Map.Entry<String, Long>> done = new ArrayList<>();
    private long deadline;
    private boolean timedOut;

    private final Path models;
    private ModelSources sources;

    private AppObserver(ObserveOptions options, Path models) {
        this.options = options;
        this.models = models;
    }

    /** Visits the app; its models are kept on disk under {@code models}. */
    static Visit visit(ObserveOptions options, Path models) {
        return new AppObserver(options, models).run();
    }

    private Visit run() {
        InstalledBrowser installed = BrowserDiscovery.find(options.browser()).orElseThrow(() -> new BackendUnavailableException(
                options.browser().id() + " is not installed", "install it (./setup.sh does) or choose another with --browser"));
        deadline = System.nanoTime() + options.timeout().toNanos();
        ScheduledExecutorService watchdog = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "accelbridge-observe-watchdog");
            t.setDaemon(true);
            return t;
        });
        String version = installed.version();
        try (PlaywrightVisit browser = PlaywrightVisit.open(ObserverBrowser.options(options.browser(), options.adapter()))) {
            version = browser.browser().version();
            // a page that never answers blocks Playwright's calls: past the timeout and a grace, its browser is ended
            watchdog.schedule(() -> {
                notes.add("the page did not answer within the timeout: its browser was closed");
                browser.kill();
            }, options.timeout().plus(grace(options.timeout())).toMillis(), TimeUnit.MILLISECONDS);
            Page page = browser.page();
            page.onPageError(e -> say("the page threw: " + e));
            // the browser is this visit's own: what is kept the browser writes to disk itself
            PageObserver observer = PageObserver.install(page, options.keep(), PageObserver.Handover.DOWNLOADS);
            sources = ModelSources.watch(page);
            done.add(Map.entry("open", System.currentTimeMillis()));
            act("open", () -> page.navigate(options.url().toString(), new Page.NavigateOptions().setTimeout(remainingMs())));
            settle(page, observer);
            for (AppStep s : options.steps()) {
                act(s.label(), () -> perform(page, s, remainingMs()));
                done.add(Map.entry(s.label(), System.currentTimeMillis()));
                settle(page, observer);
            }
            options.until().ifPresent(u -> {
                act("until " + u, () -> page.waitForSelector(u, new Page.WaitForSelectorOptions()
                        .setState(com.microsoft.playwright.options.WaitForSelectorState.ATTACHED).setTimeout(remainingMs())));
                settle(page, observer);
            });
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
        // decided once over every realm read in the visit: a worker the page started is answered for by any reading of it
        List<Observed> realms = documents.values().stream().map(Document::seen).toList();
        if (refusedReadings > 0) {
            say("the page made more realms (documents, frames, workers) than the " + MAX_REALMS + " a visit keeps: "
                    + refusedReadings + " readings of others were not kept");
        }
        return new Visit(List.copyOf(documents.values()), browserVersion, ended, List.copyOf(notes),
                PageObserver.unseen(realms, List.copyOf(unentered), entersWorkers), models, sources());
    }

    /** Where each session's model and external data came from, looked up while the browser still holds the responses. */
    private Map<String, ModelSources.Source> sources() {
        Map<String, ModelSources.Source> out = new LinkedHashMap<>();
        if (sources == null) {
            return out;
        }
        for (Document d : documents.values()) {
            for (Observed.Session s : d.seen().sessions()) {
                // the hash of the bytes kept, computed here, where they were; else the page's own
                String model = d.models().containsKey(s.id()) ? d.models().get(s.id()).sha256() : s.sha256();
                if (model != null) {
                    out.computeIfAbsent(model, sha -> sources.of(sha, s.byteLength()));
                }
                s.external().stream().filter(e -> e.sha256() != null && e.byteLength() != null)
                        .forEach(e -> out.computeIfAbsent(e.sha256(), sha -> sources.of(sha, e.byteLength())));
            }
        }
        return out;
    }

    /** How long past its timeout a page that does not answer is given: 10 s, or half the timeout when that is shorter. */
    static Duration grace(Duration timeout) {
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
            String now = poll(page, observer);
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

    /**
     * The step that triggered a session: the last one done before the page asked for it (a session an app makes while a
     * click waits for its button is the opening's, not the click's).
     */
    private String stepAt(Double createdAt) {
        String at = done.isEmpty() ? "open" : done.get(done.size() - 1).getKey();
        if (createdAt != null) {
            for (Map.Entry<String, Long> d : done) {
                if (d.getValue() <= createdAt) {
                    at = d.getKey();
                }
            }
        }
        return at;
    }

    /**
     * One reading: every realm's sessions (the page's document, its frames, its workers), each new one given the step
     * that triggered it; what was seen and not observed is kept. Returns what changes when a session is made or run.
     */
    private String poll(Page page, PageObserver observer) {
        PageObserver.Reading reading;
        try {
            reading = observer.readAll();
        } catch (PlaywrightException | AccelbridgeException e) {
            return "unreadable"; // a document between navigations, or one whose scripts have not started
        }
        unentered.addAll(reading.unentered());
        entersWorkers = reading.entersWorkers();
        StringBuilder state = new StringBuilder();
        for (Observed read : reading.realms()) {
            String key = new Document(read, Map.of(), Map.of(), Map.of(), "").key();
            Document before = documents.get(key);
            if (before == null && documents.size() >= MAX_REALMS) {
                refusedReadings++;
                state.append("+refused;");
                continue;
            }
            Observed seen = withinVisit(read, documents.entrySet().stream().filter(e -> !e.getKey().equals(key))
                    .mapToInt(e -> e.getValue().seen().sessions().size()).sum());
            Document doc = before == null ? new Document(seen, new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>(), page.url())
                    : new Document(seen, before.stepOf(), before.models(), before.tensors(), before.url());
            documents.put(key, doc);
            // found when tried: a page that reloads while its models are kept left each further session's download to
            // time out (10 s each, 64 a document); one that does not come stops this reading's keeping in the realm
            boolean keeping = true;
            for (Observed.Session s : seen.sessions()) {
                doc.stepOf().putIfAbsent(s.id(), stepAt(s.createdAt()));
                long size = s.byteLength() + s.externalBytes();
                if (keeping && s.modelKept() && !doc.models().containsKey(s.id()) && modelBytes + size <= options.keep()) {
                    Optional<PageObserver.KeptModel> kept = Optional.empty();
                    try {
                        kept = observer.keep(seen, s, models, options.keep() - modelBytes);
                    } catch (PlaywrightException e) {
                        // read again at the next poll while the realm is there
                    }
                    keeping = kept.isPresent();
                    kept.ifPresent(k -> {
                        modelBytes += k.size();
                        doc.models().put(s.id(), k);
                    });
                }
            }
            keepTensors(observer, seen, doc);
            int runs = seen.sessions().stream().mapToInt(Observed.Session::runCount).sum();
            state.append(key).append('/').append(seen.sessions().size()).append('/').append(seen.droppedSessions()).append('/')
                    .append(runs).append(';');
        }
        return state.toString();
    }

    /**
     * {@code read} with no more sessions than the visit has room for beside the {@code others} its other realms keep (the
     * rest counted as dropped).
     */
    static Observed withinVisit(Observed read, int others) {
        int room = Math.max(0, MAX_SESSIONS - others);
        if (read.sessions().size() <= room) {
            return read;
        }
        return new Observed(read.realm(), read.document(), List.copyOf(read.sessions().subList(0, room)),
                read.droppedSessions() + read.sessions().size() - room, read.modules(), read.notes(), read.started());
    }

    /** The realm's tensors over the report's bound, to disk within what the budget has left after the models. */
    private void keepTensors(PageObserver observer, Observed seen, Document doc) {
        boolean waiting = seen.sessions().stream().flatMap(s -> s.runs().stream())
                .flatMap(r -> java.util.stream.Stream.concat(r.inputs().stream(), r.outputs().stream()))
                .anyMatch(t -> t.held() != null && !doc.tensors().containsKey(t.held()));
        if (!waiting) {
            return;
        }
        try {
            Map<Integer, Path> kept = observer.keepTensors(seen, doc.tensors().keySet(), models, options.keep() - modelBytes);
            for (Path f : kept.values()) {
                modelBytes += f.toFile().length();
            }
            doc.tensors().putAll(kept);
        } catch (PlaywrightException e) {
            // read again at the next poll while the realm is there
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
