package dev.accelbridge.browser.observe;

import dev.accelbridge.core.AccelbridgeException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A realm's report is read strictly against its records: what a page could say wrongly is refused naming where, never
 * converted or made up (before, {@code "3"} was read as a count of 3, {@code 2.7} as 2, a missing count as 0, and a key
 * written twice kept its last value).
 */
class ObserverReportTest {
    private static final String SESSION = "{\"id\":1,\"sha256\":null,\"byteLength\":64,\"providers\":[],\"providerOptions\":[],"
            + "\"engine\":\"wasm\",\"createdAt\":1.0,\"createMs\":2.0,\"created\":true,\"released\":false,\"runCount\":0,"
            + "\"modelKept\":false,\"runs\":[],\"config\":{},\"error\":null,\"ortWebVersion\":\"1.22.0\",\"external\":[]}";

    private static String report(String session, String dropped) {
        return "{\"document\":\"d1\",\"sessions\":[" + session + "]," + dropped + "\"modules\":[],\"notes\":[],\"started\":[]}";
    }

    @Test
    void aReportAsTheObserverWritesItIsRead() {
        Observed o = ObserverReport.read(report(SESSION, "\"droppedSessions\":0,"), Observed.Realm.PAGE);
        assertThat(o.sessions()).singleElement().satisfies(s -> {
            assertThat(s.byteLength()).isEqualTo(64);
            assertThat(s.created()).isTrue();
        });
    }

    @ParameterizedTest(name = "{2}")
    @CsvSource(delimiter = '|', value = {
            "\"byteLength\":64|\"byteLength\":\"64\"|a count given as text|.sessions[0].byteLength",
            "\"runCount\":0|\"runCount\":2.7|a whole number given with a fraction|.sessions[0].runCount",
            "\"engine\":\"wasm\"|\"engine\":7|a name given as a number|.sessions[0].engine",
            "\"created\":true|\"created\":null|a flag given as null|.sessions[0].created",
            "\"released\":false,|''|a flag left out|sessions[0]",
            "\"id\":1|\"id\":1,\"id\":2|a key written twice|id",
            "\"error\":null|\"error\":null,\"secret\":1|a key no record declares|secret"})
    void whatThePageSaysWronglyIsRefusedNamingWhere(String field, String wrong, String what, String where) {
        String json = report(SESSION.replace(field, wrong.equals("''") ? "" : wrong), "\"droppedSessions\":0,");
        assertThatThrownBy(() -> ObserverReport.read(json, Observed.Realm.PAGE)).as(what)
                .isInstanceOf(AccelbridgeException.class).hasMessageContaining(where);
    }

    @Test
    void aMissingCountAndTrailingBytesAreRefused() {
        assertThatThrownBy(() -> ObserverReport.read(report(SESSION, ""), Observed.Realm.PAGE))
                .isInstanceOf(AccelbridgeException.class).hasMessageContaining("droppedSessions");
        assertThatThrownBy(() -> ObserverReport.read(report(SESSION, "\"droppedSessions\":0,") + "{}", Observed.Realm.PAGE))
                .isInstanceOf(AccelbridgeException.class).hasMessageContaining("Trailing token");
    }
}
