package dev.accelbridge.run;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.ModelFamily;
import org.junit.jupiter.api.Test;

import java.net.URI;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When a pool's browsers serve the next plan and when they close first, as pure logic: lanes that launch nothing, which
 * count the bridges the pool asks for. The browsers themselves are {@link LanePoolTest}'s.
 */
class LanePoolKeyTest {
    /** Lanes that only say they were made and closed. */
    private record Made(List<String> log) implements BrowserLanes {
        @Override
        public Lane open(LaneId target, Collection<BackendId> backends) {
            throw new UnsupportedOperationException("no browser here");
        }

        @Override
        public void release(LaneId target, Lane lane) {
        }

        @Override
        public void close() {
            log.add("closed");
        }

        @Override
        public String driver(LaneId target) {
            return "none";
        }
    }

    private static RunPlan plan(UnaryOperator<RunPlan.Builder> more) {
        return more.apply(RunPlan.builder().workload(w -> w.optSuites(List.of(ModelFamily.VISION)))
                .targets(t -> t.setBackends(List.of(BackendId.WASM)))).build();
    }

    /** What the pool did for {@code second} after serving {@code first}: "made" alone when it reused the first's bridge. */
    private static List<String> after(RunPlan first, RunPlan second) {
        List<String> log = new ArrayList<>();
        try (LanePool pool = new LanePool(p -> {
            log.add("made");
            return new Made(log);
        })) {
            pool.borrow(first).close();
            log.clear();
            pool.borrow(second).close();
            return List.copyOf(log);
        }
    }

    @Test
    void aPlanLaunchedAlikeReusesTheBridgeAndBrowsers() {
        assertThat(after(plan(b -> b), plan(b -> b))).isEmpty();
    }

    @Test
    void anotherOutputBudgetOrRemoteBrowserIsAnotherBridge() {
        // found when read: the bridge keeps the first plan's output budget, and a plan connecting to a remote browser took
        // the first plan's local ones
        assertThat(after(plan(b -> b), plan(b -> b.limits(l -> l.optMaxResultBytes(1 << 20))))).containsExactly("closed", "made");
        RemoteBrowsers remote = new RemoteBrowsers(Map.of(), Optional.of(URI.create("ws://10.0.0.7:3000/")), Optional.empty());
        assertThat(after(plan(b -> b), plan(b -> b.targets(t -> t.optRemote(remote))))).containsExactly("closed", "made");
    }
}
