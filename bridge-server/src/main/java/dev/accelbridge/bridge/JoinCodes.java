package dev.accelbridge.bridge;

import java.security.SecureRandom;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.Iterator;
import java.util.Map;

/**
 * One-time join codes for launched browsers, so the run's token never stands in a command line ({@code ps} shows
 * every process's arguments to every local user) or a log: a browser is given {@code /?join=CODE}, and its first
 * request exchanges the code for the token's HttpOnly cookie. A code works once and only for {@link #TTL}.
 */
final class JoinCodes {
    /** How long a code may wait for its browser: a Grid session's queue and a slow browser start included. */
    static final Duration TTL = Duration.ofSeconds(90);

    private final SecureRandom random = new SecureRandom();
    private final Map<String, Instant> live = new HashMap<>();
    private final Clock clock;

    JoinCodes(Clock clock) {
        this.clock = clock;
    }

    /** A fresh code: 128 random bits, hex. */
    synchronized String issue() {
        prune();
        byte[] b = new byte[16];
        random.nextBytes(b);
        String code = HexFormat.of().formatHex(b);
        live.put(code, clock.instant().plus(TTL));
        return code;
    }

    /** True once for a code issued here and not yet expired; the code is spent either way. */
    synchronized boolean redeem(String code) {
        if (code == null) {
            return false;
        }
        Instant until = live.remove(code);
        return until != null && !clock.instant().isAfter(until);
    }

    private void prune() {
        Instant now = clock.instant();
        for (Iterator<Instant> it = live.values().iterator(); it.hasNext(); ) {
            if (now.isAfter(it.next())) {
                it.remove();
            }
        }
    }
}
