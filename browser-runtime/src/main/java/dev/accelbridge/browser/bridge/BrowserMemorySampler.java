package dev.accelbridge.browser.bridge;

import dev.accelbridge.browser.launch.BrowserHandle;
import dev.accelbridge.core.MemoryUsage;

import java.util.OptionalLong;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Samples a launched browser's process-tree RSS during one case: before the model is loaded, every 100 ms while
 * it runs (for the peak), and after the timed iterations. The sum counts pages shared between Chromium's
 * processes once per process, so it is an upper bound; VmRSS is read rather than smaps' PSS because PSS costs
 * the kernel a page-table walk per process, which on two cores would compete with the inference being timed.
 * A page that joined by hand has no process here, so its memory stays {@link MemoryUsage#UNKNOWN}.
 */
final class BrowserMemorySampler implements AutoCloseable {
    private static final long INTERVAL_MS = 100;

    private final BrowserHandle handle;
    private final long before;
    private final AtomicLong peak = new AtomicLong(-1);
    private final ScheduledExecutorService timer;

    private BrowserMemorySampler(BrowserHandle handle, long before) {
        this.handle = handle;
        this.before = before;
        this.peak.set(before);
        this.timer = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "browser-rss-sampler");
            t.setDaemon(true);
            return t;
        });
        timer.scheduleAtFixedRate(this::sample, INTERVAL_MS, INTERVAL_MS, TimeUnit.MILLISECONDS);
    }

    /** Starts sampling {@code handle}; null (nothing to sample) when there is no local process. */
    static BrowserMemorySampler start(BrowserHandle handle) {
        if (handle == null) {
            return null;
        }
        OptionalLong now = handle.rssBytes();
        return now.isPresent() ? new BrowserMemorySampler(handle, now.getAsLong()) : null;
    }

    private void sample() {
        handle.rssBytes().ifPresent(v -> peak.accumulateAndGet(v, Math::max));
    }

    /** Stops sampling and returns before / after / peak. */
    MemoryUsage finish() {
        timer.shutdownNow();
        long after = handle.rssBytes().orElse(-1);
        if (after > 0) {
            peak.accumulateAndGet(after, Math::max);
        }
        return new MemoryUsage(before, after, peak.get());
    }

    @Override
    public void close() {
        timer.shutdownNow();
    }
}
