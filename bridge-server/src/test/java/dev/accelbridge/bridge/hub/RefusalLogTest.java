package dev.accelbridge.bridge.hub;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import static org.assertj.core.api.Assertions.assertThat;

/** Found when tried: 2,000 WebSocket attempts without the token printed 2,005 warning lines and buried the join URL. */
class RefusalLogTest {
    @Test
    void twoThousandRefusalsAreOneLineThenOneSummaryAMinuteAndTheRestWhenTheBridgeCloses() {
        AtomicLong now = new AtomicLong();
        List<String> lines = new ArrayList<>();
        RefusalLog log = new RefusalLog(now::get, lines::add);
        for (int i = 0; i < 2000; i++) {
            now.addAndGet(Duration.ofMillis(50).toNanos()); // 100 s in all
            log.refused("WebSocket", "10.0.0." + (i % 3) + ":5" + i, "no token \u001B[2J");
        }
        assertThat(lines).hasSize(2);
        assertThat(lines.get(0)).startsWith("Refused WebSocket from '10.0.0.0:50': no token").doesNotContain("\u001B");
        assertThat(lines.get(1)).isEqualTo("Refused 1,200 more WebSocket connections from at least 1,024 addresses: no token");
        log.refused("page", "10.0.0.9", "the page cap");
        log.flush();
        assertThat(lines).hasSize(4);
        assertThat(lines.get(3)).isEqualTo("Refused 799 more WebSocket connections from 799 addresses: no token");
        assertThat(log.total()).isEqualTo(2001);
    }
}
