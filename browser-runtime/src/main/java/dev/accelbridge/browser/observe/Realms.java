package dev.accelbridge.browser.observe;

import java.util.List;

/**
 * How one driver reaches an observed page's realms (its document, its frames, the workers it entered): each realm is asked
 * in its own way, and the driver says what it saw and could not enter. {@link PageObserver} holds one.
 */
interface Realms {
    /** The observer's object in a realm, as an expression. */
    String KEY = "globalThis[Symbol.for('accelbridge.observer')]";

    /** One realm the driver can ask. */
    interface Realm {
        /** Where it is, as the driver knows it. */
        Observed.Realm where();

        /** The observer's report as JSON, or null where the realm has no observer. */
        Object report();

        /** Evaluates {@code expression}, in which the observer's object is {@code o}; null where the realm has no observer. */
        Object ask(String expression);

        /**
         * Has the browser write the realm's {@code blob:} URL to {@code to} itself, as a download; false where this
         * driver does not (the bytes then come in parts through {@link #ask}) or the download did not finish.
         */
        default boolean download(String blobUrl, java.nio.file.Path to) {
            return false;
        }

        /** Whether {@link #download} is how this realm's bytes leave it. */
        default boolean downloads() {
            return false;
        }
    }

    /** A realm asked through {@code report} and {@code ask}. */
    static Realm of(Observed.Realm where, java.util.function.Supplier<Object> report, java.util.function.Function<String, Object> ask) {
        return of(where, report, ask, null);
    }

    /** A realm asked through {@code report} and {@code ask}, whose blob: URLs {@code download} (when given) writes to disk. */
    static Realm of(Observed.Realm where, java.util.function.Supplier<Object> report, java.util.function.Function<String, Object> ask,
                    java.util.function.BiPredicate<String, java.nio.file.Path> download) {
        return new Realm() {
            @Override
            public boolean download(String blobUrl, java.nio.file.Path to) {
                return download != null && download.test(blobUrl, to);
            }

            @Override
            public boolean downloads() {
                return download != null;
            }

            @Override
            public Observed.Realm where() {
                return where;
            }

            @Override
            public Object report() {
                return report.get();
            }

            @Override
            public Object ask(String expression) {
                return ask.apply(expression);
            }
        };
    }

    /** The realms that can be asked now, the page's document first. */
    List<Realm> realms();

    /** What the driver saw and could not enter (before the page's own account of the workers it started). */
    List<Observed.Unseen> unentered();

    /** Whether the driver enters dedicated workers at all. */
    boolean entersWorkers();

    /** The browser's version as its driver reports it (the lane a replay of what it ran runs in), or null where it says none. */
    default String browserVersion() {
        return null;
    }

    /** The page's own downloads the driver refused (a browser the reader owns keeps only the downloads it asked for). */
    default long refusedDownloads() {
        return 0;
    }
}
