package dev.accelbridge.bridge.hub;

import dev.accelbridge.core.Untrusted;

import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * Refused connections counted, not printed one by one (found when tried: 2,000 attempts without the token printed 2,005
 * warning lines and buried the join URL): the first refusal of each reason is a line, later ones are held back and
 * summed up in one line at most every {@link #EVERY} (how many, from how many addresses), and whatever is held back when
 * the bridge closes is summed up then.
 */
final class RefusalLog {
    /** The least time between two summary lines of one reason. */
    static final Duration EVERY = Duration.ofSeconds(60);
    /** The most distinct addresses remembered per reason: beyond it, "at least" that many. */
    static final int MAX_ADDRESSES = 1024;

    private final LongSupplier nanos;
    private final Consumer<String> out;
    private final Map<String, Held> held = new LinkedHashMap<>();
    private long total;

    private static final class Held {
        String what;
        String reason;
        long since;
        long count;
        final Set<String> addresses = new LinkedHashSet<>();
    }

    /** Refusals timed by {@code nanos}, their lines given to {@code out} (the bridge's log). */
    RefusalLog(LongSupplier nanos, Consumer<String> out) {
        this.nanos = nanos;
        this.out = out;
    }

    /**
     * One refusal of {@code what} ({@code "WebSocket"}, {@code "page"}) from {@code remote} for {@code reason}: logged
     * when it is the first of its reason or a minute has passed since the last line of it, else held back and counted.
     */
    synchronized void refused(String what, String remote, String reason) {
        total++;
        String said = Untrusted.bounded(reason, 300).trim();
        String key = what + ": " + said;
        long now = nanos.getAsLong();
        Held h = held.get(key);
        if (h == null) {
            h = new Held();
            h.what = what;
            h.reason = said;
            h.since = now;
            held.put(key, h);
            out.accept("Refused " + what + " from " + Untrusted.quote(remote) + ": " + h.reason
                    + " (more like it are counted and summed up at most once a minute)");
            return;
        }
        h.count++;
        if (h.addresses.size() < MAX_ADDRESSES) {
            h.addresses.add(Untrusted.bounded(remote, 100));
        }
        if (now - h.since >= EVERY.toNanos()) {
            out.accept(summary(h));
            h.since = now;
            h.count = 0;
            h.addresses.clear();
        }
    }

    /** Every refusal so far, logged or held back. */
    synchronized long total() {
        return total;
    }

    /** Logs the summary of every refusal still held back (the bridge is closing), and forgets them. */
    synchronized void flush() {
        held.values().stream().filter(h -> h.count > 0).forEach(h -> out.accept(summary(h)));
        held.clear();
    }

    private static String summary(Held h) {
        int a = h.addresses.size();
        return String.format(java.util.Locale.ROOT, "Refused %,d more %s connection%s from %s%,d address%s: %s", h.count, h.what,
                h.count == 1 ? "" : "s", a >= MAX_ADDRESSES ? "at least " : "", a, a == 1 ? "" : "es", h.reason);
    }
}
