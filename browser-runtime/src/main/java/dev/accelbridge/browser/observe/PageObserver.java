package dev.accelbridge.browser.observe;

import com.microsoft.playwright.Page;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.PublicApi;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Observes the onnxruntime-web sessions of a page the caller drives, a Playwright page or a Selenium WebDriver's:
 * {@link #install} adds the observer script ({@code observer.js}) to the page before its scripts run (Playwright's init
 * script, in every frame; WebDriver BiDi's preload script) and, in Chromium driven by Playwright, to every dedicated
 * worker the page starts before the worker's first script ({@link WorkerAttacher}); {@link #read} returns what the page's
 * document saw, {@link #readAll} what every realm saw and what the visit could not enter. Install before the page
 * navigates: a page already loaded is observed from its next navigation on. What the page says comes back as data only,
 * bounded in the page ({@link Observed}) and here (at most {@link #MAX_REPORT} characters of report a realm).
 */
@PublicApi
public final class PageObserver {
    /** The largest report read back from a realm. */
    public static final int MAX_REPORT = 64 << 20;
    /** The model bytes a realm holds for the reader at once, and a visit keeps on disk, unless told otherwise: 4 GiB. */
    public static final long DEFAULT_KEEP = 4L << 30;
    /**
     * The values a realm keeps of its runs' tensors (in its report and held for the reader): a run is recorded with its
     * values while the realm has kept less, so each step of a generation of small tensors is judged; past it, runs spread
     * evenly over each session keep theirs (every second, then every fourth, ..., the values between let go), and the
     * report stays within {@link #MAX_REPORT}.
     */
    public static final long VALUE_BYTES = 32L << 20;
    private static final String SCRIPT = script();

    /**
     * Every realm's report, and what the driver saw and could not enter.
     *
     * @param realms        the page's document first, then its frames and workers
     * @param unentered     what the driver saw and could not enter (a service worker, a worker entered late), each with why
     * @param entersWorkers whether the driver enters dedicated workers at all
     * @param unreadable    the realms there whose report could not be read (it broke its schema or its bound), each with
     *                      why: what they computed is unseen, never taken as absent
     */
    public record Reading(List<Observed> realms, List<Observed.Unseen> unentered, boolean entersWorkers, List<Observed.Unseen> unreadable) {
        /** Copies the lists. */
        public Reading {
            realms = List.copyOf(realms);
            unentered = List.copyOf(unentered);
            unreadable = List.copyOf(unreadable);
        }

        /** What was seen and not observed in this reading ({@link PageObserver#unseen}), the realms not read among it. */
        public List<Observed.Unseen> unseen() {
            return PageObserver.unseen(realms, unentered, unreadable, entersWorkers);
        }
    }

    private final Realms driver;
    private final Map<String, Realms.Realm> byKey = new HashMap<>();

    private PageObserver(Realms driver) {
        this.driver = driver;
    }

    /** An observer over realms a driver reaches its own way (and a test's realms, whose reports it writes). */
    static PageObserver over(Realms driver) {
        return new PageObserver(driver);
    }

    /** Installs the observer into {@code page}, for every document and dedicated worker it loads from now on. */
    public static PageObserver install(Page page) {
        return install(page, DEFAULT_KEEP);
    }

    /**
     * Installs the observer into {@code page}, each realm holding at most {@code keep} bytes of models for the reader at
     * once (a copy is let go once {@link #keep} has it on disk).
     */
    public static PageObserver install(Page page, long keep) {
        return install(page, keep, Handover.PARTS);
    }

    /** How what is kept (models, external data, large tensors) leaves the page for the reader's disk. */
    public enum Handover {
        /** In base64 parts of 8 MiB through the driver's channel (about 6 MiB/s): the page's own downloads untouched. */
        PARTS,
        /**
         * As downloads of {@code blob:} URLs, written by the browser itself (256 MiB in about 1.2 s), parts where a download
         * does not finish: for a browser the reader owns, whose downloads nobody else waits on (the page's own are
         * refused, {@link #refusedDownloads}).
         */
        DOWNLOADS
    }

    /**
     * Installs the observer into {@code page}, each realm holding at most {@code keep} bytes for the reader at once,
     * handed over as {@code handover} says.
     */
    public static PageObserver install(Page page, long keep, Handover handover) {
        return new PageObserver(new PlaywrightRealms(page, withBudget(keep), handover == Handover.DOWNLOADS));
    }

    /**
     * Installs the observer into the pages of a Selenium {@code driver} with WebDriver BiDi ({@code webSocketUrl} asked for
     * when the session was made: {@code ChromeOptions.enableBiDi()}), as a preload script that runs before any script
     * of every document from now on. Workers are not entered this way (BiDi's preload scripts reach windows only): the
     * workers a page starts are said as unseen.
     *
     * @throws AccelbridgeException when the driver's session has no BiDi connection
     */
    public static PageObserver install(org.openqa.selenium.WebDriver driver) {
        return new PageObserver(new BiDiRealms(driver, withBudget(DEFAULT_KEEP)));
    }

    private static String withBudget(long keep) {
        return "Object.defineProperty(globalThis, Symbol.for('accelbridge.observer.keep'), { value: " + Math.max(0, keep)
                + ", configurable: true });\nObject.defineProperty(globalThis, Symbol.for('accelbridge.observer.values'), { value: "
                + VALUE_BYTES + ", configurable: true });\n" + SCRIPT;
    }

    /**
     * The observer script itself (its parts: stateless helpers, clocks and hash, IO binding and GPU tensors; then the
     * observer), for a driver that installs it its own way (a
     * WebDriver BiDi preload script).
     */
    public static String script() {
        return resource("observer-parts.js") + "\n" + resource("observer-times.js") + "\n" + resource("observer-gpu.js") + "\n"
                + resource("observer.js");
    }

    private static String resource(String name) {
        try (InputStream in = PageObserver.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new AccelbridgeException("the observer script " + name + " is not on the classpath", "rebuild browser-runtime");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The observed browser's version as its driver reports it, or null where it says none. */
    public String browserVersion() {
        return driver.browserVersion();
    }

    /**
     * What the observer saw in the page's current document (its own thread; {@link #readAll} has its frames and workers).
     *
     * @throws AccelbridgeException when the page has no observer (installed after it loaded) or its report is over the bound
     */
    public Observed read() {
        Realms.Realm page = driver.realms().get(0);
        Observed o = parse(page.report(), page.where());
        byKey.put(key(o), page);
        return o;
    }

    /**
     * What every realm saw (the page's document, each frame that has the observer, each dedicated worker entered), and
     * what the visit saw and could not observe: a worker the driver could not enter, a service or shared worker, a
     * worker a realm started that no entered realm answers for. A realm that cannot be read now (between navigations, a
     * worker ended) is left out of this reading.
     */
    public Reading readAll() {
        return readAll(Long.MAX_VALUE);
    }

    /**
     * As {@link #readAll()}, reading at most {@code maxChars} characters of reports in all: a realm whose report would pass
     * them is not read now and is said, with why (found when tried: 24 frames of 56 MB reports, each parsed and held,
     * took the JVM to 2.32 GB before the visit's bound on realms was reached).
     */
    public Reading readAll(long maxChars) {
        List<Observed> realms = new ArrayList<>();
        List<Observed.Unseen> unreadable = new ArrayList<>();
        long chars = 0;
        for (Realms.Realm r : driver.realms()) {
            Object report;
            try {
                report = r.report();
            } catch (RuntimeException e) { // PlaywrightException: a realm not there now (a worker ended, a navigation)
                if (r.where().kind() == Observed.Realm.Kind.PAGE) {
                    throw e;
                }
                continue;
            }
            if (!(report instanceof String) && r.where().kind() != Observed.Realm.Kind.PAGE) {
                continue; // a frame whose document has not run the observer yet
            }
            if (report instanceof String json && (chars += json.length()) > maxChars) {
                unreadable.add(new Observed.Unseen(r.where().kind().word(), r.where().url(), "its observer's report was not read: the "
                        + "reports read together passed the " + maxChars + " characters a reading holds"));
                continue;
            }
            try {
                Observed o = parse(report, r.where());
                realms.add(o);
                byKey.put(key(o), r);
            } catch (AccelbridgeException e) {
                if (!(report instanceof String)) {
                    throw e; // the page's document without an observer: installed after it loaded
                }
                // found when tried: one odd value (a Date for a time, an array for a worker's type) refused the realm's
                // whole report, and the visit said the page made no session; the realm is said, with why
                unreadable.add(new Observed.Unseen(r.where().kind().word(), r.where().url(), "its observer's report could not be read ("
                        + e.getMessage() + ")"));
            }
        }
        return new Reading(realms, driver.unentered(), driver.entersWorkers(), unreadable);
    }

    /**
     * What was seen and not observed: the driver's own account, the realms whose report could not be read, then each
     * worker a realm started that no realm read answers for (matched by URL, each entered or unreadable worker answering
     * for one start), and every shared or service worker. A visit read many times passes every realm it ever read, so a
     * worker read once and ended since still answers.
     */
    public static List<Observed.Unseen> unseen(List<Observed> realms, List<Observed.Unseen> unentered, List<Observed.Unseen> unreadable,
                                               boolean entersWorkers) {
        List<Observed.Unseen> out = new ArrayList<>(unentered);
        out.addAll(unreadable);
        Map<String, Integer> entered = new HashMap<>();
        for (Observed o : realms) {
            if (o.realm().kind() == Observed.Realm.Kind.WORKER) {
                entered.merge(o.realm().url(), 1, Integer::sum);
            }
        }
        out.forEach(u -> entered.merge(u.url(), 1, Integer::sum)); // said once, by the driver or the reader
        for (Observed o : realms) {
            for (Observed.Started st : o.started()) {
                String url = resolve(o.realm().url(), st.url());
                if (!"worker".equals(st.kind())) {
                    if (entered.merge(url, -1, Integer::sum) < 0) {
                        out.add(new Observed.Unseen(st.kind(), url, "the observer enters dedicated workers and frames only"));
                    }
                } else if (entered.merge(url, -1, Integer::sum) < 0) {
                    out.add(new Observed.Unseen("worker", url, entersWorkers ? "it answered no reading (it may have ended first)"
                            : "this browser's driver cannot put the observer into a worker"));
                }
            }
        }
        return out;
    }

    private static String resolve(String base, String url) {
        try {
            return base == null || base.isEmpty() ? url : java.net.URI.create(base).resolve(url).toString();
        } catch (IllegalArgumentException e) {
            return url;
        }
    }

    private static String key(Observed o) {
        return o.realm().kind() + " " + o.realm().url() + " " + o.document();
    }

    private static Observed parse(Object r, Observed.Realm where) {
        if (!(r instanceof String json)) {
            throw new AccelbridgeException("the page has no Accelbridge observer: it was loaded before the observer was installed",
                    "install the observer before the page navigates (PageObserver.install), or reload the page");
        }
        if (json.length() > MAX_REPORT) {
            throw new AccelbridgeException("the page's observer report is " + json.length() + " characters, above the bound of "
                    + MAX_REPORT, "observe fewer sessions in one document");
        }
        // strict (observer.js and the records are one schema: ObserverReportMirrorTest, ObserverSchema)
        return ObserverReport.read(json, where);
    }

    /** The page's own downloads refused: a browser the reader owns ({@link Handover#DOWNLOADS}) keeps only its own. */
    public long refusedDownloads() {
        return driver.refusedDownloads();
    }

    /** The bytes of session {@code s}'s model in the page's document, when the observer kept them. */
    public Optional<byte[]> model(Observed.Session s) {
        return model(driver.realms().get(0), s);
    }

    /**
     * The bytes of session {@code s}'s model in the realm that reported {@code where} (as {@link #readAll} gave it), when
     * the observer kept them and the realm is still there.
     */
    public Optional<byte[]> model(Observed where, Observed.Session s) {
        Realms.Realm r = byKey.get(key(where));
        return r == null ? Optional.empty() : model(r, s);
    }

    private static Optional<byte[]> model(Realms.Realm r, Observed.Session s) {
        Object b64 = r.ask("o.model(" + s.id() + ")");
        try {
            return b64 instanceof String b ? Optional.of(Base64.getDecoder().decode(b)) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }

    /**
     * Writes session {@code s}'s model, read from the realm that reported {@code where}, to {@code dir} (named by the
     * sha256 of the bytes read, never by what the page said) and lets the realm's copy go; empty when the realm no longer
     * has it, it is over {@code maxBytes}, or what came is not what the page hashed.
     */
    public Optional<KeptModel> keep(Observed where, Observed.Session s, Path dir, long maxBytes) {
        Realms.Realm r = byKey.get(key(where));
        return r == null ? Optional.empty() : ModelKeeper.keep(r, s, dir, maxBytes);
    }

    /**
     * Writes each tensor the realm that reported {@code where} holds over the report's bound to {@code dir}, part by part,
     * and lets the realm's copy go: the files by held id, those in {@code kept} (written before) passed over. A tensor is
     * written only while {@code maxBytes} has room; one the realm no longer holds, or that does not come whole at its size,
     * is left out.
     */
    public Map<Integer, Path> keepTensors(Observed where, java.util.Set<Integer> kept, Path dir, long maxBytes) {
        Realms.Realm r = byKey.get(key(where));
        return r == null ? Map.of() : ModelKeeper.keepTensors(r, where, kept, dir, maxBytes);
    }

    /**
     * A model kept on disk, in a folder of its own with the external data files kept beside it.
     *
     * @param file    where
     * @param sha256  the sha256 of its bytes as read
     * @param size    its size and its external files' kept
     * @param missing the external data files not kept, each with why (native cannot load the model without them)
     */
    public record KeptModel(Path file, String sha256, long size, List<String> missing) {
        /** Copies the list. */
        public KeptModel {
            missing = List.copyOf(missing);
        }
    }
}
