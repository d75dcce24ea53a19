package dev.accelbridge.run;

import dev.accelbridge.browser.testing.RequiresBrowser;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.ModelFamily;
import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A session's browsers on real Chromium: a second run takes the lane the first gave back (no second launch), probes a
 * backend the first did not ask about on that same browser, and a plan launched differently closes the pool's browsers
 * and starts its own.
 */
@RequiresBrowser
class LanePoolTest {

    /** Real lanes, counting the browsers they launch. */
    private static final class Counting implements BrowserLanes {
        final BridgeBrowserLanes real;
        final AtomicInteger launched;

        Counting(RunPlan plan, AtomicInteger launched) {
            this.real = new BridgeBrowserLanes(plan, ToolkitVersions.runtime());
            this.launched = launched;
        }

        @Override
        public Lane open(LaneId browser, Collection<BackendId> backends) {
            launched.incrementAndGet();
            return real.open(browser, backends);
        }

        @Override
        public void release(LaneId target, Lane lane) {
            real.release(target, lane);
        }

        @Override
        public void close() {
            real.close();
        }

        @Override
        public String driver(dev.accelbridge.core.LaneId target) {
            return real.driver(target);
        }
    }

    private static RunPlan plan(Duration caseTimeout) {
        return RunPlan.builder().workload(w -> w.optSuites(List.of(ModelFamily.VISION))).targets(t -> t.setBackends(List.of(BackendId.WASM))).limits(l -> l.optCaseTimeout(caseTimeout)).build();
    }

    @Test
    void aSecondRunReusesTheBrowserTheFirstGaveBack() {
        AtomicInteger launched = new AtomicInteger();
        Map<RunPlan, Counting> made = new java.util.HashMap<>();
        try (LanePool pool = new LanePool(p -> made.computeIfAbsent(p, x -> new Counting(x, launched)))) {
            RunPlan plan = plan(Duration.ofSeconds(180));
            Lane first;
            try (BrowserLanes run1 = pool.borrow(plan)) {
                assertThat(run1.warm(LaneId.of(BrowserKind.CHROMIUM))).isFalse();
                first = run1.open(LaneId.of(BrowserKind.CHROMIUM), List.of(BackendId.WASM));
                assertThat(first.probes().get(BackendId.WASM).available()).isTrue();
            }
            assertThat(pool.idleLanes()).isOne();
            try (BrowserLanes run2 = pool.borrow(plan)) {
                assertThat(run2.warm(LaneId.of(BrowserKind.CHROMIUM))).isTrue(); // what the run says: "reusing chromium"
                Lane again = run2.open(LaneId.of(BrowserKind.CHROMIUM), List.of(BackendId.WASM, BackendId.WEBNN_NPU));
                assertThat(again.providers().apply(BackendId.WASM)).isSameAs(first.providers().apply(BackendId.WASM));
                assertThat(again.probes()).containsKeys(BackendId.WASM, BackendId.WEBNN_NPU);
                assertThat(pool.idleLanes()).isZero();
                // a second lane at once is a second browser: a lane is never shared by two runs' threads
                Lane other = run2.open(LaneId.of(BrowserKind.CHROMIUM), List.of(BackendId.WASM));
                assertThat(other.providers().apply(BackendId.WASM)).isNotSameAs(first.providers().apply(BackendId.WASM));
            }
            assertThat(launched).hasValue(2);
            assertThat(pool.idleLanes()).isEqualTo(2);

            // another case timeout is another bridge: the pool's browsers close and the plan gets its own
            RunPlan slower = plan(Duration.ofSeconds(300));
            try (BrowserLanes run3 = pool.borrow(slower)) {
                assertThat(pool.idleLanes()).isZero();
                run3.open(LaneId.of(BrowserKind.CHROMIUM), List.of(BackendId.WASM));
            }
            assertThat(launched).hasValue(3);
            assertThat(made.get(plan).real.bridge()).isNull(); // closed with its browsers
            assertThat(made.get(slower).real.bridge()).isNotNull();
        }
        assertThat(made.values()).allSatisfy(c -> assertThat(c.real.bridge()).isNull());
    }

    @Test
    void aLaneWhoseCasesAreDoneGoesBackAtOnceAndThePoolKeepsOnlyAFewBrowsersIdle() {
        // found when tried: a sweep of eight onnxruntime-web versions with two lanes each held all sixteen pages until the
        // run ended, past the bridge's cap of fifteen joined pages, and the last lanes were refused
        AtomicInteger launched = new AtomicInteger();
        try (LanePool pool = new LanePool(p -> new Counting(p, launched))) {
            RunPlan plan = plan(Duration.ofSeconds(180));
            int opened = LanePool.MAX_IDLE + 2;
            List<Lane> lanes = new java.util.ArrayList<>();
            try (BrowserLanes run = pool.borrow(plan)) {
                for (int i = 0; i < opened; i++) {
                    lanes.add(run.open(LaneId.of(BrowserKind.CHROMIUM), List.of(BackendId.WASM)));
                }
                lanes.forEach(l -> run.release(LaneId.of(BrowserKind.CHROMIUM), l));
                assertThat(pool.idleLanes()).as("given back before the run ends, at most the cap kept").isEqualTo(LanePool.MAX_IDLE);
            }
            List<Boolean> open = lanes.stream().map(l -> ((dev.accelbridge.browser.provider.BrowserBackendProvider) l.providers()
                    .apply(BackendId.WASM)).handle().isPresent()).toList();
            assertThat(open).as("the oldest closed").containsExactly(false, false, true, true, true, true);
            assertThat(launched).hasValue(opened);
        }
    }
}
