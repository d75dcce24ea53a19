package dev.accelbridge.core;

import java.util.Optional;

/**
 * Whether a case ran, and where, as a type (as JUnit's outcomes are): each kind holds only what it can have, so no reader
 * asks a null what the type says. The status and the reason beside it in the {@link RunResult} say how it ended and why.
 */
@PublicApi
public sealed interface Outcome permits Outcome.Ran, Outcome.Stopped, Outcome.Unplaced, Outcome.NotRun {
    /**
     * It ran on {@code backend} and was timed.
     *
     * @param parity its outputs against the reference; empty for the reference itself and where they were not compared
     */
    record Ran(BackendId backend, Timings timings, Optional<Parity> parity) implements Outcome {
        public Ran {
            java.util.Objects.requireNonNull(backend, "backend");
            java.util.Objects.requireNonNull(timings, "timings");
            parity = parity == null ? Optional.empty() : parity;
        }
    }

    /**
     * A backend took it and it stopped before its figures (a session that failed to load or run there).
     *
     * @param parity its outputs against the reference, where it got as far as outputs
     */
    record Stopped(BackendId backend, Optional<Parity> parity) implements Outcome {
        public Stopped {
            java.util.Objects.requireNonNull(backend, "backend");
            parity = parity == null ? Optional.empty() : parity;
        }
    }

    /**
     * It was timed where the row can name no backend that ran it: an observed app's session that failed or was not judged
     * (the page timed it; its verdict says why no backend is credited).
     */
    record Unplaced(Timings timings) implements Outcome {
        public Unplaced {
            java.util.Objects.requireNonNull(timings, "timings");
        }
    }

    /** It ran nowhere. */
    record NotRun() implements Outcome {
    }

    /** The four kinds, as a row stores them ({@link #kind()}): the one column that says which of the parts it holds. */
    enum Kind {
        /** {@link Ran}. */
        RAN,
        /** {@link Stopped}. */
        STOPPED,
        /** {@link Unplaced}. */
        UNPLACED,
        /** {@link NotRun}. */
        NOT_RUN
    }

    /** Which kind this is. */
    default Kind kind() {
        // Java 17 has no pattern switch: the sealed list above is the whole of it
        return this instanceof Ran ? Kind.RAN : this instanceof Stopped ? Kind.STOPPED : this instanceof Unplaced ? Kind.UNPLACED
                : Kind.NOT_RUN;
    }

    /**
     * A stored row's outcome: its kind as stored, its parts as stored (each null where the row holds none). The parts must be
     * what the kind holds, no more and no less: a row whose columns disagree with its kind is malformed, refused as any
     * malformed row is, never guessed into another kind.
     *
     * @throws IllegalArgumentException naming the kind and the part that disagrees
     */
    static Outcome read(Kind kind, BackendId backend, Timings timings, Parity parity) {
        java.util.Objects.requireNonNull(kind, "kind");
        boolean ran = kind == Kind.RAN || kind == Kind.STOPPED;
        boolean timed = kind == Kind.RAN || kind == Kind.UNPLACED;
        if ((backend != null) != ran) {
            throw new IllegalArgumentException("outcome " + kind + " " + (ran ? "names no backend that ran it" : "names a backend that ran it"));
        }
        if ((timings != null) != timed) {
            throw new IllegalArgumentException("outcome " + kind + " " + (timed ? "has no timings" : "has timings"));
        }
        if (parity != null && !ran) {
            throw new IllegalArgumentException("outcome " + kind + " has outputs compared with no backend that made them");
        }
        return switch (kind) {
            case RAN -> new Ran(backend, timings, java.util.Optional.ofNullable(parity));
            case STOPPED -> new Stopped(backend, java.util.Optional.ofNullable(parity));
            case UNPLACED -> new Unplaced(timings);
            case NOT_RUN -> new NotRun();
        };
    }

    /**
     * The same outcome with other timings (the samples read back beside a row): only a kind that was timed has timings to
     * replace.
     *
     * @throws IllegalStateException for a kind that was not timed
     */
    default Outcome withTimings(Timings t) {
        if (this instanceof Ran r) {
            return new Ran(r.backend(), t, r.parity());
        }
        if (this instanceof Unplaced) {
            return new Unplaced(t);
        }
        throw new IllegalStateException("a case whose outcome is " + kind() + " has no timings to replace");
    }

    /** The backend that ran it, if one did. */
    default Optional<BackendId> ranOn() {
        return this instanceof Ran r ? Optional.of(r.backend()) : this instanceof Stopped s ? Optional.of(s.backend()) : Optional.empty();
    }

    /** Its outputs against the reference, if they were compared. */
    default Optional<Parity> compared() {
        return this instanceof Ran r ? r.parity() : this instanceof Stopped s ? s.parity() : Optional.empty();
    }

    /** What was timed, if anything. */
    default Optional<Timings> timed() {
        return this instanceof Ran r ? Optional.of(r.timings()) : this instanceof Unplaced u ? Optional.of(u.timings()) : Optional.empty();
    }
}
