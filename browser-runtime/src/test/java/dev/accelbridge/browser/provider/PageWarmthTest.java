package dev.accelbridge.browser.provider;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.MinDurations;
import dev.accelbridge.core.Settling;
import org.junit.jupiter.api.Test;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** A page's wasm engine is warm for the cases after one that warmed up for the lane warm-up, and only then. */
class PageWarmthTest {
    static final MinDurations ASKED = new MinDurations(Duration.ofSeconds(1), Duration.ofSeconds(1));

    @Test
    void thePagesFirstWasmCaseWarmsUpForTheLaneWarmUpAndTheNextDoesNot() {
        PageWarmth w = new PageWarmth();
        MinDurations first = w.durations(BackendId.WASM, ASKED);
        assertThat(first.warmup()).isEqualTo(Settling.FIRST_ON_PAGE);
        assertThat(w.durations(BackendId.WEBGPU, ASKED)).isEqualTo(ASKED);
        w.ran(BackendId.WASM, first);
        assertThat(w.durations(BackendId.WASM, ASKED)).isEqualTo(ASKED);
        w.reset();
        assertThat(w.durations(BackendId.WASM, ASKED).warmup()).isEqualTo(Settling.FIRST_ON_PAGE);
    }

    @Test
    void aCaseOfExactCountsWarmsNothing() {
        // found: a generation (then warmed by its count alone) marked the page warm, and the next wasm case skipped its lane warm-up
        PageWarmth w = new PageWarmth();
        w.ran(BackendId.WASM, MinDurations.NONE);
        assertThat(w.durations(BackendId.WASM, ASKED).warmup()).isEqualTo(Settling.FIRST_ON_PAGE);
        w.ran(BackendId.WEBGPU, w.durations(BackendId.WEBGPU, ASKED));
        assertThat(w.durations(BackendId.WASM, ASKED).warmup()).isEqualTo(Settling.FIRST_ON_PAGE);
    }
}
