package dev.accelbridge.api;

import dev.accelbridge.browser.observe.Observed;
import dev.accelbridge.browser.observe.VisitReadings;
import org.junit.jupiter.api.Test;

import java.util.List;
import java.util.Map;
import java.util.stream.IntStream;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The visit's own bound on sessions, counted here across its realms (pure): found when tried, a page that reloads itself
 * after 64 sessions gave 2,304 rows in 118 s and a 6.55 GB JVM, since each document's bound held for that document alone.
 */
class VisitBoundsTest {
    private static Observed realm(int sessions, int dropped) {
        List<Observed.Session> s = IntStream.rangeClosed(1, sessions).mapToObj(i -> new Observed.Session(i, null, 10, List.of(),
                List.of(), "jsep", 0.0, 1.0, true, false, 0, false, List.of(), Map.of(), Map.of(), null, null, null, "1.30.0", List.of())).toList();
        return new Observed(new Observed.Realm(Observed.Realm.Kind.PAGE, "http://127.0.0.1:1/"), "1", s, dropped, List.of(),
                List.of(), List.of(), 0.1);
    }

    @Test
    void aRealmGetsOnlyTheRoomItsVisitHasLeftAndTheRestIsCounted() {
        Observed full = realm(64, 36);
        assertThat(VisitReadings.withinVisit(full, 0)).isSameAs(full);
        Observed cut = VisitReadings.withinVisit(full, VisitReadings.MAX_SESSIONS - 10);
        assertThat(cut.sessions()).hasSize(10).extracting(Observed.Session::id).startsWith(1, 2);
        assertThat(cut.droppedSessions()).isEqualTo(36 + 54);
        assertThat(VisitReadings.withinVisit(full, VisitReadings.MAX_SESSIONS + 5).sessions()).isEmpty();
        // as the readings of a page that reloads forever come in: the visit never holds more than its bound
        int kept = 0;
        for (int doc = 0; doc < 40; doc++) {
            kept += VisitReadings.withinVisit(full, kept).sessions().size();
        }
        assertThat(kept).isEqualTo(VisitReadings.MAX_SESSIONS);
    }
}
