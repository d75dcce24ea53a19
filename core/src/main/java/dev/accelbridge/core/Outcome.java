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

    /**
     * The outcome of what a row holds: the backend that ran it, what was timed and its outputs' comparison, each null when
     * there is none (the one place a row's parts come together).
     *
     * @throws IllegalArgumentException for a comparison without a backend that made the outputs
     */
    static Outcome of(BackendId backend, Timings timings, Parity parity) {
        if (backend != null) {
            return timings != null ? new Ran(backend, timings, Optional.ofNullable(parity)) : new Stopped(backend, Optional.ofNullable(parity));
        }
        if (parity != null) {
            throw new IllegalArgumentException("outputs compared with no backend that made them");
        }
        return timings != null ? new Unplaced(timings) : new NotRun();
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
