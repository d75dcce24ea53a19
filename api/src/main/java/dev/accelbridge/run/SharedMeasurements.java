package dev.accelbridge.run;

import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.RunResult;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Work a lane measures once for every cell that lands on it. Found when tried: 36 of the default matrix's 96 cells were
 * {@code webnn-* → wasm} fallbacks that ran their lane's wasm case again, and the copies then disagreed with each other
 * (one model's wasm p50 6.06 to 16.22 ms in one lane) by where they fell in the run. A fallback whose chain lands on a
 * backend its lane runs the same case on (requested there) is now judged on that cell's execution: its own verdict, hops
 * and reasons, the measured cell's figures ({@link dev.accelbridge.core.RunResult#figuresOf()}).
 *
 * <p>Planned per lane before its cases run ({@link #expect}): the measured cell runs first, its readers right after it, so
 * an execution (with its outputs) is held only until its last reader has it; a cell measured before the lanes were planned
 * (the native CPU cases, run first as the references) is {@link #kept} for them. A cell that ends without an execution (it
 * failed) leaves its readers to run the work themselves. Thread-safe: parallel lanes of one target share one queue.
 */
final class SharedMeasurements {
    /** One measured cell: its execution once it has one (null: it ended without), and the readers still to take it. */
    private record Slot(CompletableFuture<Execution> execution, AtomicInteger readers) {
    }

    private final ConcurrentHashMap<CaseId, Slot> slots = new ConcurrentHashMap<>();

    /** {@code cell} (a case requested on the backend it names) will run, and {@code readers} fallbacks will land on its work. */
    void expect(CaseId cell, int readers) {
        slots.computeIfAbsent(cell, c -> new Slot(new CompletableFuture<>(), new AtomicInteger())).readers().addAndGet(readers);
    }

    /** Whether fallbacks are to be judged on {@code cell}'s work (and so need not be sent ahead to a page). */
    boolean expected(CaseId cell) {
        return slots.containsKey(cell);
    }

    /**
     * {@code cell} ran before its lane's cases were planned (a native CPU case, run first as every case's reference): its
     * execution is kept for the fallbacks a lane will plan on it. Its outputs are held as the reference anyway.
     */
    void kept(CaseId cell, Execution e) {
        if (e != null) {
            slots.computeIfAbsent(cell, c -> new Slot(new CompletableFuture<>(), new AtomicInteger())).execution().complete(e);
        }
    }

    /** Whether {@code cell} has been measured and its execution is still held. */
    boolean holds(CaseId cell) {
        Slot s = slots.get(cell);
        return s != null && s.execution().isDone() && s.execution().getNow(null) != null;
    }

    /** {@code cell} measured {@code e}; its readers are judged on it. */
    void measured(CaseId cell, Execution e) {
        Slot s = slots.get(cell);
        if (s != null) {
            s.execution().complete(e);
        }
    }

    /** {@code cell} has ended, measured or not: a reader still to come gets nothing when it measured nothing. */
    void ended(CaseId cell) {
        Slot s = slots.get(cell);
        if (s != null) {
            s.execution().complete(null);
        }
    }

    /** {@code r}, a result judged on another cell's measurement: marked ({@link RunResult#figuresOf()}) and said in its reason. */
    static RunResult named(RunResult r) {
        if (!(r.outcome() instanceof Outcome.Ran ran)) {
            return r;
        }
        String said = "figures: this lane's " + ran.backend().id() + " case's (the same work, measured once)";
        return r.withStatus(r.status(), r.reason() == null ? said : r.reason() + "; " + said).withSharedFigures();
    }

    /**
     * The execution of {@code cell} for a fallback landing on it, waiting at most {@code wait} while it runs on another lane;
     * empty when none is planned, the cell ended without one, or the wait ran out: the fallback then runs the work itself.
     */
    Optional<Execution> take(CaseId cell, Duration wait) {
        Slot s = slots.get(cell);
        if (s == null || s.readers().get() <= 0) {
            return Optional.empty(); // no fallback was planned on it (--remeasure-fallbacks, or a chain that moved on)
        }
        Execution e;
        try {
            e = s.execution().get(Math.max(1, wait.toMillis()), TimeUnit.MILLISECONDS);
        } catch (TimeoutException | ExecutionException ex) {
            e = null;
        } catch (InterruptedException ex) {
            Thread.currentThread().interrupt();
            e = null;
        }
        if (s.readers().decrementAndGet() <= 0) {
            slots.remove(cell, s); // the last reader: the outputs are no longer held
        }
        return Optional.ofNullable(e);
    }
}
