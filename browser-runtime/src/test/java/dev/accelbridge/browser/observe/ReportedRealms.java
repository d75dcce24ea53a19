package dev.accelbridge.browser.observe;

import java.util.List;

/**
 * An observer over one page realm whose report a test gives as the driver would hand it over, and which answers nothing
 * else it is asked (as a page that has gone answers): for tests of what a reader does with a reading, outside this package.
 */
public final class ReportedRealms {
    private ReportedRealms() {
    }

    /** An observer whose page, at {@code url}, reports {@code report} and holds nothing for the reader. */
    public static PageObserver page(String url, String report) {
        return PageObserver.over(of(List.of(Realms.of(new Observed.Realm(Observed.Realm.Kind.PAGE, url), () -> report, e -> null))));
    }

    /** A driver that reaches {@code all} and enters workers, having seen nothing it could not enter. */
    static Realms of(List<Realms.Realm> all) {
        return new Realms() {
            @Override
            public List<Realm> realms() {
                return all;
            }

            @Override
            public List<Observed.Unseen> unentered() {
                return List.of();
            }

            @Override
            public boolean entersWorkers() {
                return true;
            }
        };
    }
}
