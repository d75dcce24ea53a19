package dev.accelbridge.core;

import java.util.Optional;

/**
 * Whether a case ran, and where, as a type (as JUnit's outcomes are): each kind holds only what it can have, so no reader
 * asks a null what the type says. The status and the reason beside it in the {@link RunResult} say how it ended and why.
 */
@PublicApi
public sealed interface Outcome permits Outcome.Ran, Outcome.Stopped, Outcome.Unplaced, Outcome.NotRun {
    /** It ran on {@code backend} and was timed. */
    record Ran(BackendId backend, Timings timings) implements Outcome {
        public Ran {
            java.util.Objects.requireNonNull(backend, "backend");
            java.util.Objects.requireNonNull(timings, "timings");
        }
    }

    /** A backend took it and it stopped before its figures (a session that failed to load or run there). */
    record Stopped(BackendId backend) implements Outcome {
        public Stopped {
            java.util.Objects.requireNonNull(backend, "backend");
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

    /** The outcome of what a row holds: the backend that ran it and what was timed, each absent when there is none. */
    static Outcome of(BackendId backend, Timings timings) {
        if (backend != null) {
            return timings != null ? new Ran(backend, timings) : new Stopped(backend);
        }
        return timings != null ? new Unplaced(timings) : new NotRun();
    }

    /** The backend that ran it, if one did. */
    default Optional<BackendId> ranOn() {
        return this instanceof Ran r ? Optional.of(r.backend()) : this instanceof Stopped s ? Optional.of(s.backend()) : Optional.empty();
    }

    /** What was timed, if anything. */
    default Optional<Timings> timed() {
        return this instanceof Ran r ? Optional.of(r.timings()) : this instanceof Unplaced u ? Optional.of(u.timings()) : Optional.empty();
    }
}
