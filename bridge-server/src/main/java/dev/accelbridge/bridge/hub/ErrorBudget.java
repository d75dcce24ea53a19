package dev.accelbridge.bridge.hub;

import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

/**
 * How many protocol errors one connection may cause: at most {@link #MAX} a minute, past which it is closed and nothing
 * more of it is answered or logged. Found when tried: 200,000 unsolicited messages took the JVM from 213 MB to 1.17 GB,
 * each answered and logged. A page's late answers to jobs that timed out (a result's chunks) stay far below it.
 */
final class ErrorBudget {
    /** The most protocol errors a connection may cause in a minute. */
    static final int MAX = 1000;

    /** What to do with one more error. */
    enum Spend {
        /** Answer it, as every error is. */
        ANSWER,
        /** The first past the budget: close the connection, saying why. */
        CLOSE,
        /** Past the budget and closed: nothing more. */
        IGNORE
    }

    private final LongSupplier nanos;
    private long since;
    private int count;

    /** A budget timed by {@code nanos}. */
    ErrorBudget(LongSupplier nanos) {
        this.nanos = nanos;
        this.since = nanos.getAsLong();
    }

    /** One more error. */
    synchronized Spend spend() {
        if (count <= MAX && nanos.getAsLong() - since > TimeUnit.MINUTES.toNanos(1)) {
            since = nanos.getAsLong();
            count = 0;
        }
        count++;
        return count <= MAX ? Spend.ANSWER : count == MAX + 1 ? Spend.CLOSE : Spend.IGNORE;
    }
}
