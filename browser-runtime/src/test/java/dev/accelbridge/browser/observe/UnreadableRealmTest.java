package dev.accelbridge.browser.observe;

import dev.accelbridge.core.AccelbridgeException;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A realm whose report the strict reader refuses is said, with why, as seen and not observed; the others are read as
 * ever (pure: the realms' reports are given here as a driver hands them over). Found when tried: one odd value in a
 * realm's report hid every session of the visit, and its row said "the page made no onnxruntime-web session"; a frame
 * or worker whose reading failed got no row at all.
 */
class UnreadableRealmTest {
    private static final String GOOD = "{\"document\":\"1\",\"sessions\":[],\"droppedSessions\":0,\"modules\":[],\"notes\":[],\"started\":[]}";

    private static Realms realms(List<Realms.Realm> all) {
        return ReportedRealms.of(all);
    }

    private static Realms.Realm realm(Observed.Realm.Kind kind, String url, Object report) {
        return Realms.of(new Observed.Realm(kind, url), () -> report, e -> null);
    }

    @Test
    void aReportThatBreaksItsSchemaIsARealmSaidUnseenWithWhy() {
        PageObserver o = PageObserver.over(realms(List.of(
                realm(Observed.Realm.Kind.PAGE, "http://a/", GOOD.replace("\"started\":[]",
                        "\"started\":[{\"kind\":\"worker\",\"url\":\"w.js\",\"type\":[\"module\"]}]")),
                realm(Observed.Realm.Kind.WORKER, "http://a/w.js", GOOD))));
        PageObserver.Reading r = o.readAll();
        assertThat(r.realms()).as("the worker's report is read").singleElement()
                .satisfies(x -> assertThat(x.realm().kind()).isEqualTo(Observed.Realm.Kind.WORKER));
        assertThat(r.unseen()).singleElement().satisfies(u -> {
            assertThat(u.kind()).isEqualTo("page");
            assertThat(u.url()).isEqualTo("http://a/");
            assertThat(u.describe()).contains("its observer's report could not be read").contains(".started[0].type")
                    .endsWith("whatever it computed is unseen");
        });
    }

    @Test
    void aFramesBrokenReportIsSaidToo() {
        PageObserver o = PageObserver.over(realms(List.of(realm(Observed.Realm.Kind.PAGE, "http://a/", GOOD),
                realm(Observed.Realm.Kind.FRAME, "http://b/", GOOD.replace("\"droppedSessions\":0", "\"droppedSessions\":1e300")))));
        assertThat(o.readAll().unseen()).singleElement().satisfies(u -> assertThat(u.kind()).isEqualTo("frame"));
    }

    @Test
    void reportsPastWhatAReadingHoldsAreNotReadAndAreSaid() {
        PageObserver o = PageObserver.over(realms(List.of(realm(Observed.Realm.Kind.PAGE, "http://a/", GOOD),
                realm(Observed.Realm.Kind.FRAME, "http://b/", GOOD), realm(Observed.Realm.Kind.FRAME, "http://c/", GOOD))));
        PageObserver.Reading r = o.readAll(2L * GOOD.length());
        assertThat(r.realms()).hasSize(2);
        assertThat(r.unseen()).singleElement().satisfies(u -> {
            assertThat(u.url()).isEqualTo("http://c/");
            assertThat(u.describe()).contains("the reports read together passed the " + 2 * GOOD.length() + " characters a reading holds");
        });
    }

    @Test
    void aPageWithoutAnObserverIsStillAnError() {
        PageObserver o = PageObserver.over(realms(List.of(realm(Observed.Realm.Kind.PAGE, "http://a/", null))));
        assertThatThrownBy(o::readAll).isInstanceOf(AccelbridgeException.class).hasMessageContaining("has no Accelbridge observer");
    }
}
