package dev.accelbridge.tools.dashboard;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.reports.store.RunInfo;
import dev.accelbridge.reports.store.RunStatus;
import org.junit.jupiter.api.Test;

import java.time.Instant;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/** The live view's lanes say where a long case is, from what the run records beside its lock (pure logic). */
class LiveFeedProgressTest {
    @Test
    void aLaneRunningALongCaseSaysWhichIterationItIsAt() {
        RunInfo info = new RunInfo("r1", Instant.parse("2026-11-23T00:00:00Z"), null, RunStatus.RUNNING, "h", "0.1", Map.of(),
                "{\"cases\": 2, \"lanes\": {\"native\": 1, \"chromium\": 1}}", 0);
        String inCase = "[{\"lane\":\"chromium\",\"case\":\"other/slow/fixed\",\"backend\":\"wasm\",\"phase\":\"timed\",\"done\":2,\"total\":3,\"now\":\"timed run 2 of 3\"}]";
        ObjectNode p = LiveFeed.progress(info, List.of(), true, inCase);
        assertThat(p.get("lanes")).anySatisfy(l -> {
            assertThat(l.get("lane").asText()).isEqualTo("chromium");
            assertThat(l.get("now").asText()).isEqualTo("other/slow/fixed wasm: timed run 2 of 3");
        });
        assertThat(p.get("lanes")).filteredOn(l -> l.get("lane").asText().equals("native")).allSatisfy(l -> assertThat(l.has("now")).isFalse());
        // a file caught mid-write is no reason to fail the feed
        assertThat(LiveFeed.progress(info, List.of(), true, "[{\"lane\":").get("lanes")).hasSize(2);
    }
}
