package dev.accelbridge.browser.provider;

import dev.accelbridge.browser.launch.BrowserHandle;
import dev.accelbridge.browser.launch.TreeMemory;
import dev.accelbridge.core.MemoryUsage;
import dev.accelbridge.core.ProcessPeak;

import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Samples a launched browser's process-tree RSS during one case: before the model is loaded, every 100 ms while
 * the session is created and first run (for the peak), once when the timed iterations are done, and after the case.
 * The periodic sampling stops before the warm-ups and timed iterations ({@link #stopSampling}): nothing of the harness
 * runs while the page times its runs. The sum counts pages shared between Chromium's
 * processes once per process, so it is an upper bound; VmRSS is read rather than smaps' PSS because PSS costs
 * the kernel a page-table walk per process, which on two cores would compete with the inference being timed.
 * Each sample is also kept by process type (renderer, GPU process, the rest), each type's peak its own highest sum.
 * A page that joined by hand has no process here, so its memory stays {@link MemoryUsage#UNKNOWN}.
 */
final class BrowserMemorySampler implements AutoCloseable {
    private static final long INTERVAL_MS = 100;

    private final BrowserHandle handle;
    private final long before;
    private final AtomicLong peak = new AtomicLong(-1);
    private final Map<String, Long> peaks = new ConcurrentHashMap<>();
    private final ScheduledExecutorService timer;

    private BrowserMemorySampler(BrowserHandle handle, long before) {
        this.handle = handle;
        this.before = before;
        this.peak.set(before);
        this.timer = handle == null ? null : Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "browser-rss-sampler");
            t.setDaemon(true);
            return t;
        });
        if (timer != null) {
            timer.scheduleAtFixedRate(this::sample, INTERVAL_MS, INTERVAL_MS, TimeUnit.MILLISECONDS);
        }
    }

    /**
     * Starts sampling {@code handle}; a sampler that measures nothing (its {@link #finish} is {@link MemoryUsage#UNKNOWN})
     * when there is no local process to read.
     */
    static BrowserMemorySampler start(BrowserHandle handle) {
        OptionalLong now = handle == null ? OptionalLong.empty() : handle.rssBytes();
        return new BrowserMemorySampler(now.isPresent() ? handle : null, now.orElse(-1));
    }

    private void sample() {
        if (handle != null) {
            handle.treeMemory().ifPresent(this::take);
        }
    }

    private void take(TreeMemory t) {
        peak.accumulateAndGet(t.totalBytes(), Math::max);
        t.byType().forEach((type, bytes) -> peaks.merge(type, bytes, Math::max));
    }

    /** Stops the periodic sampling (before the timed job), with one sample taken now. */
    void stopSampling() {
        close();
        sample();
    }

    /** One sample now, into the peak (the timed job just ended, its session still alive). */
    void sampleNow() {
        sample();
    }

    /** Stops sampling and returns before / after / peak. */
    MemoryUsage finish() {
        close();
        if (handle == null) {
            return MemoryUsage.UNKNOWN;
        }
        long after = handle.treeMemory().map(t -> {
            take(t);
            return t.totalBytes();
        }).orElse(-1L);
        List<ProcessPeak> byType = peaks.entrySet().stream().sorted(Map.Entry.comparingByKey())
                .map(e -> new ProcessPeak(e.getKey(), e.getValue())).toList();
        return new MemoryUsage(before, after, peak.get()).withProcesses(byType);
    }

    @Override
    public void close() {
        if (timer != null) {
            timer.shutdownNow();
        }
    }
}
