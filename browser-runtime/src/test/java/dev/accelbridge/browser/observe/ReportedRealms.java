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
        Realms.Realm page = Realms.of(new Observed.Realm(Observed.Realm.Kind.PAGE, url), () -> report, e -> null);
        return PageObserver.over(new Realms() {
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
                return true;
            }
        });
    }
}
