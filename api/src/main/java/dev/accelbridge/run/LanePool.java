package dev.accelbridge.run;

import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.WebGpuAdapter;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.LaneId;

import java.net.URI;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Browser lanes kept open across runs, for a session that runs many small plans (a JUnit class, a program calling the
 * Java API in a loop): a run {@link #borrow borrows} lanes, and closing what it borrowed gives the lanes back instead of
 * closing their browsers, so the next run's cases start on a browser that is already up and probed. A plan launched
 * differently (another driver, Grid or remote browser, headless setting, exposure, case timeout, output budget, V8 or WebGPU
 * flags) closes the pool's browsers and starts afresh. {@link #close()} closes every browser and the bridge.
 */
public final class LanePool implements AutoCloseable {
    /**
     * What the browsers of a plan are launched with, and their bridge started with: plans that agree on it can share lanes
     * (found when read: a later plan's output budget was the bridge's of the first, and a remote browser's address was not
     * part of it, so a plan that connects elsewhere reused the first plan's browsers).
     */
    private record LaunchKey(DriverKind driver, Optional<URI> grid, RemoteBrowsers remote, boolean headless, Exposure exposure,
                             Duration caseTimeout, long maxResultBytes, List<String> extraArgs,
                             WebGpuAdapter webGpuAdapter) {
        static LaunchKey of(RunPlan p) {
            return new LaunchKey(p.targets().driver(), p.targets().grid(), p.targets().remote(), p.targets().headless(), p.targets().exposure(),
                    p.limits().caseTimeout(), p.limits().maxResultBytes(),
                    BridgeBrowserLanes.engineArgs(p, BrowserKind.CHROMIUM), p.targets().webGpuAdapter());
        }
    }

    private record Held(LaneId target, Lane lane) {
    }

    private final Function<RunPlan, BrowserLanes> factory;
    /** Idle browsers kept for the next run at most; older ones close. */
    static final int MAX_IDLE = 4;

    private final Map<LaneId, Deque<Lane>> idle = new java.util.HashMap<>();
    /** The idle lanes, oldest first. */
    private final List<Held> order = new ArrayList<>();
    private BrowserLanes lanes;
    private LaunchKey key;

    /** A pool whose browsers {@code factory} launches (e.g. {@code plan -> new BridgeBrowserLanes(plan, versions)}). */
    public LanePool(Function<RunPlan, BrowserLanes> factory) {
        this.factory = factory;
    }

    /**
     * The lanes for one run of {@code plan}: idle lanes of the same launch settings first, new ones past them. Close the
     * result when the run ends (the orchestrator does) to give its lanes back.
     */
    public synchronized BrowserLanes borrow(RunPlan plan) {
        LaunchKey k = LaunchKey.of(plan);
        if (lanes != null && !k.equals(key)) {
            close();
        }
        if (lanes == null) {
            lanes = factory.apply(plan);
            key = k;
        }
        return new Borrowed(lanes);
    }

    /** Browsers open in the pool now, idle ones only (for tests and diagnostics). */
    public synchronized int idleLanes() {
        return idle.values().stream().mapToInt(Deque::size).sum();
    }

    private synchronized Lane takeIdle(LaneId target) {
        Deque<Lane> d = idle.get(target);
        Lane l = d == null ? null : d.poll();
        order.removeIf(h -> h.lane() == l);
        return l;
    }

    private synchronized void giveBack(List<Held> held, BrowserLanes from) {
        if (from != lanes) {
            return; // the pool was reset while the run held them: their browsers are already closed
        }
        held.forEach(h -> {
            idle.computeIfAbsent(h.target(), b -> new ArrayDeque<>()).add(h.lane());
            order.add(h);
        });
        // the oldest idle browsers beyond the cap close: a session that sweeps many versions keeps a few warm, not all
        while (order.size() > MAX_IDLE) {
            Held oldest = order.remove(0);
            Deque<Lane> d = idle.get(oldest.target());
            if (d != null && d.remove(oldest.lane())) {
                from.release(oldest.target(), oldest.lane());
            }
        }
    }

    /** The lane, with probes for any backend it was not asked about before (its browser is the same). */
    private static Lane withProbes(Lane lane, Collection<BackendId> backends) {
        if (lane.probes().keySet().containsAll(backends)) {
            return lane;
        }
        Map<BackendId, Availability> probes = new LinkedHashMap<>(lane.probes());
        for (BackendId b : backends) {
            probes.computeIfAbsent(b, x -> lane.providers().apply(x).probe(x));
        }
        return new Lane(lane.id(), lane.name(), lane.providers(), probes, lane.provenance(), lane.host(), lane.renew());
    }

    @Override
    public synchronized void close() {
        idle.clear();
        order.clear();
        if (lanes != null) {
            BrowserLanes l = lanes;
            lanes = null;
            key = null;
            l.close();
        }
    }

    /** One run's view of the pool. */
    private final class Borrowed implements BrowserLanes {
        private final BrowserLanes delegate;
        private final List<Held> held = new ArrayList<>();

        Borrowed(BrowserLanes delegate) {
            this.delegate = delegate;
        }

        @Override
        public Lane open(LaneId target, Collection<BackendId> backends) {
            Lane kept = takeIdle(target);
            // a new browser launches outside the pool's lock: parallel lanes start at once
            Lane lane = kept != null ? withProbes(kept, backends) : delegate.open(target, backends);
            synchronized (this) {
                held.add(new Held(target, lane));
            }
            return lane;
        }

        @Override
        public LaneId expected(LaneId target) {
            return delegate.expected(target);
        }

        /** The lane's cases of this run are done: back to the pool now, not at the run's end. */
        @Override
        public void release(LaneId target, Lane lane) {
            boolean mine;
            synchronized (this) {
                mine = held.removeIf(h -> h.lane() == lane);
            }
            if (mine) {
                giveBack(List.of(new Held(target, lane)), delegate);
            }
        }

        @Override
        public boolean warm(LaneId target) {
            synchronized (LanePool.this) {
                Deque<Lane> d = idle.get(target);
                return d != null && !d.isEmpty();
            }
        }

        @Override
        public int maxLanes() {
            return delegate.maxLanes();
        }

        @Override
        public String driver(LaneId target) {
            return delegate.driver(target);
        }

        @Override
        public void close() {
            List<Held> h;
            synchronized (this) {
                h = List.copyOf(held);
                held.clear();
            }
            giveBack(h, delegate);
        }
    }
}
