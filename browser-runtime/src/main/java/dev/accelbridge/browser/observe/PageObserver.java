package dev.accelbridge.browser.observe;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.microsoft.playwright.Frame;
import com.microsoft.playwright.Page;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.Untrusted;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
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
@dev.accelbridge.core.PublicApi
public final class PageObserver {
    /** The largest report read back from a realm. */
    public static final int MAX_REPORT = 64 << 20;
    /** How long a worker is given to answer a reading. */
    static final Duration WORKER_ANSWER = Duration.ofSeconds(10);
    private static final String KEY = "globalThis[Symbol.for('accelbridge.observer')]";
    private static final String REPORT = "(async () => { const o = " + KEY + "; return o ? JSON.stringify(await o.report()) : null; })()";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SCRIPT = script();

    /** One realm the driver can ask: the questions the observer answers there. */
    private interface Realm {
        Observed.Realm where();

        /** The report as JSON, or null where the realm has no observer. */
        Object report();

        /** Session {@code id}'s model as base64, or null. */
        Object model(int id);
    }

    /** How a driver lists the realms it can ask, and what it saw and could not enter. */
    private interface Driver {
        List<Realm> realms();

        /** What the driver saw and could not enter (before the page's own account of the workers it started). */
        List<Observed.Unseen> unentered();

        /** Whether the driver enters dedicated workers at all. */
        boolean entersWorkers();
    }

    /**
     * Every realm's report, and what the driver saw and could not enter.
     *
     * @param realms        the page's document first, then its frames and workers
     * @param unentered     what the driver saw and could not enter (a service worker, a worker entered late), each with why
     * @param entersWorkers whether the driver enters dedicated workers at all
     */
    public record Reading(List<Observed> realms, List<Observed.Unseen> unentered, boolean entersWorkers) {
        /** Copies the lists. */
        public Reading {
            realms = List.copyOf(realms);
            unentered = List.copyOf(unentered);
        }

        /** What was seen and not observed in this reading ({@link PageObserver#unseen}). */
        public List<Observed.Unseen> unseen() {
            return PageObserver.unseen(realms, unentered, entersWorkers);
        }
    }

    private final Driver driver;
    private final Map<String, Realm> byKey = new HashMap<>();

    private PageObserver(Driver driver) {
        this.driver = driver;
    }

    /** Installs the observer into {@code page}, for every document and dedicated worker it loads from now on. */
    public static PageObserver install(Page page) {
        page.addInitScript(SCRIPT);
        WorkerAttacher.Attached attached = WorkerAttacher.attach(page, SCRIPT);
        return new PageObserver(new Driver() {
            @Override
            public List<Realm> realms() {
                List<Realm> out = new ArrayList<>();
                for (Frame f : page.frames()) {
                    Observed.Realm where = new Observed.Realm(f == page.mainFrame() ? Observed.Realm.Kind.PAGE : Observed.Realm.Kind.FRAME,
                            Untrusted.bounded(f.url(), 500));
                    out.add(new Realm() {
                        @Override
                        public Observed.Realm where() {
                            return where;
                        }

                        @Override
                        public Object report() {
                            return f.evaluate(REPORT);
                        }

                        @Override
                        public Object model(int id) {
                            return f.evaluate("id => { const o = " + KEY + "; return o ? o.model(id) : null; }", id);
                        }
                    });
                }
                attached.attacher().ifPresent(a -> a.targets().stream().filter(t -> t.worker() && t.failure() == null).forEach(t -> {
                    Observed.Realm where = new Observed.Realm(Observed.Realm.Kind.WORKER, t.url());
                    out.add(new Realm() {
                        @Override
                        public Observed.Realm where() {
                            return where;
                        }

                        @Override
                        public Object report() {
                            return a.evaluate(t, REPORT, WORKER_ANSWER).orElse(null);
                        }

                        @Override
                        public Object model(int id) {
                            return a.evaluate(t, "(() => { const o = " + KEY + "; return o ? o.model(" + id + ") : null; })()", WORKER_ANSWER)
                                    .orElse(null);
                        }
                    });
                }));
                return out;
            }

            @Override
            public List<Observed.Unseen> unentered() {
                List<Observed.Unseen> out = new ArrayList<>();
                attached.attacher().ifPresent(a -> a.targets().forEach(t -> {
                    if (t.failure() != null) {
                        out.add(new Observed.Unseen(kindOf(t.type()), t.url(), t.failure()));
                    } else if (t.worker() && !t.enteredBeforeStart()) {
                        out.add(new Observed.Unseen("worker", t.url(), "the observer was put in after the worker had started (Chromium "
                                + "does not hold a worker started by a worker), so a session it made before then would be missed"));
                    } else if (!t.worker() && !"iframe".equals(t.type())) {
                        out.add(new Observed.Unseen(kindOf(t.type()), t.url(), "the observer enters dedicated workers and frames only"));
                    }
                }));
                return out;
            }

            @Override
            public boolean entersWorkers() {
                return attached.attacher().isPresent();
            }
        });
    }

    private static String kindOf(String cdpType) {
        return switch (String.valueOf(cdpType)) {
            case "service_worker" -> "service-worker";
            case "shared_worker" -> "shared-worker";
            case "iframe" -> "frame";
            default -> String.valueOf(cdpType);
        };
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
        if (!(driver instanceof org.openqa.selenium.bidi.HasBiDi bidi) || bidi.maybeGetBiDi().isEmpty()) {
            throw new AccelbridgeException("this WebDriver session has no BiDi connection, so nothing can be put into its pages "
                    + "before their scripts", "make the session with BiDi on (ChromeOptions.enableBiDi(), FirefoxOptions.enableBiDi())");
        }
        // the preload script stays the browser's once added; the module is only the connection's listener, closed at once
        try (org.openqa.selenium.bidi.module.Script script = new org.openqa.selenium.bidi.module.Script(driver)) {
            script.addPreloadScript("() => {\n" + SCRIPT + "\n}");
        }
        org.openqa.selenium.JavascriptExecutor js = (org.openqa.selenium.JavascriptExecutor) driver;
        Realm page = new Realm() {
            @Override
            public Observed.Realm where() {
                return new Observed.Realm(Observed.Realm.Kind.PAGE, Untrusted.bounded(String.valueOf(driver.getCurrentUrl()), 500));
            }

            @Override
            public Object report() {
                return js.executeAsyncScript("const done = arguments[arguments.length - 1]; const o = " + KEY + ";"
                        + " if (!o) { done(null); } else { o.report().then(r => done(JSON.stringify(r)), () => done(null)); }");
            }

            @Override
            public Object model(int id) {
                return js.executeScript("const o = " + KEY + "; return o ? o.model(arguments[0]) : null;", id);
            }
        };
        return new PageObserver(new Driver() {
            @Override
            public List<Realm> realms() {
                return List.of(page);
            }

            @Override
            public List<Observed.Unseen> unentered() {
                return List.of();
            }

            @Override
            public boolean entersWorkers() {
                return false;
            }
        });
    }

    /** The observer script itself, for a driver that installs it its own way (a WebDriver BiDi preload script). */
    public static String script() {
        try (InputStream in = PageObserver.class.getResourceAsStream("observer.js")) {
            if (in == null) {
                throw new AccelbridgeException("the observer script is not on the classpath", "rebuild browser-runtime");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * What the observer saw in the page's current document (its own thread; {@link #readAll} has its frames and workers).
     *
     * @throws AccelbridgeException when the page has no observer (installed after it loaded) or its report is over the bound
     */
    public Observed read() {
        Realm page = driver.realms().get(0);
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
        List<Observed> realms = new ArrayList<>();
        for (Realm r : driver.realms()) {
            try {
                Observed o = parse(r.report(), r.where());
                realms.add(o);
                byKey.put(key(o), r);
            } catch (RuntimeException e) { // AccelbridgeException, PlaywrightException: a realm not there now
                if (r.where().kind() == Observed.Realm.Kind.PAGE) {
                    throw e;
                }
            }
        }
        return new Reading(realms, driver.unentered(), driver.entersWorkers());
    }

    /**
     * What was seen and not observed: the driver's own account, then each worker a realm started that no realm read
     * answers for (matched by URL, each entered worker answering for one start), and every shared or service worker. A
     * visit read many times passes every realm it ever read, so a worker read once and ended since still answers.
     */
    public static List<Observed.Unseen> unseen(List<Observed> realms, List<Observed.Unseen> unentered, boolean entersWorkers) {
        List<Observed.Unseen> out = new ArrayList<>(unentered);
        Map<String, Integer> entered = new HashMap<>();
        for (Observed o : realms) {
            if (o.realm().kind() == Observed.Realm.Kind.WORKER) {
                entered.merge(o.realm().url(), 1, Integer::sum);
            }
        }
        unentered.forEach(u -> entered.merge(u.url(), 1, Integer::sum)); // said once, by the driver
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
        try {
            return JSON.readValue(json, Observed.class).in(where);
        } catch (IOException e) {
            throw new AccelbridgeException("the page's observer report could not be read: " + Untrusted.bounded(
                    e.getMessage(), 300), "report it: the observer and this reader disagree");
        }
    }

    /** The bytes of session {@code s}'s model in the page's document, when the observer kept them. */
    public Optional<byte[]> model(Observed.Session s) {
        return model(driver.realms().get(0), s);
    }

    /**
     * The bytes of session {@code s}'s model in the realm that reported {@code where} (as {@link #readAll} gave it), when
     * the observer kept them (at most 64 MiB of models a realm) and the realm is still there.
     */
    public Optional<byte[]> model(Observed where, Observed.Session s) {
        Realm r = byKey.get(key(where));
        return r == null ? Optional.empty() : model(r, s);
    }

    private static Optional<byte[]> model(Realm r, Observed.Session s) {
        Object b64 = r.model(s.id());
        try {
            return b64 instanceof String b ? Optional.of(Base64.getDecoder().decode(b)) : Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.empty();
        }
    }
}
