package dev.accelbridge.junit5;

import dev.accelbridge.api.CaseResult;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Bisection;
import dev.accelbridge.core.Status;
import org.assertj.core.api.AbstractAssert;

import java.util.Locale;
import java.util.OptionalDouble;

/**
 * AssertJ assertions on a {@link CaseResult}. Every failure message names the case ({@code webgpu [chromium 140]}), what
 * it did (status, the backend that ran it, the reason) and the figures compared, so a red test says what went wrong
 * without opening the report.
 */
public final class CaseResultAssert extends AbstractAssert<CaseResultAssert, CaseResult> {

    CaseResultAssert(CaseResult actual) {
        super(actual, CaseResultAssert.class);
    }

    /** It executed, on {@code backend} (requested there, or reached by fallback). */
    public CaseResultAssert ranOn(BackendId backend) {
        isNotNull();
        if (!actual.status().executed() || actual.actual().orElse(null) != backend) {
            fail("to run on " + backend.id() + ", but " + what());
        }
        return this;
    }

    /** It executed on the backend it asked for (no fallback). */
    public CaseResultAssert ranAsRequested() {
        isNotNull();
        return ranOn(actual.requested());
    }

    /** It fell back from the requested backend and executed on {@code backend}. */
    public CaseResultAssert fellBackTo(BackendId backend) {
        isNotNull();
        if (!actual.status().executed() || !actual.fellBack() || actual.actual().orElse(null) != backend) {
            fail("to fall back from " + actual.requested().id() + " to " + backend.id() + ", but " + what());
        }
        return this;
    }

    /** Its status is {@code status}. */
    public CaseResultAssert hasStatus(Status status) {
        isNotNull();
        if (actual.status() != status) {
            fail("to be " + status + ", but " + what());
        }
        return this;
    }

    /**
     * It executed and its outputs are within tolerance of the reference (the native CPU run, or the outputs shipped with
     * the model); the native CPU case is its own reference and passes when it ran.
     */
    public CaseResultAssert matchesReference() {
        isNotNull();
        if (!actual.status().executed()) {
            fail("to match the reference, but " + what());
        }
        if (actual.status() == Status.WRONG_OUTPUT || actual.parity().map(p -> !p.within()).orElse(false)) {
            Bisection b = actual.result().analysis().bisection();
            fail("to match the reference, but its outputs differ: " + actual.parity().map(p -> p.describe()).orElse(actual.reason().orElse(""))
                    + (b == null ? "" : "; " + b.describe()));
        }
        return this;
    }

    /** A bound on the median timed iteration, finished by {@link P50Bound#timesNative()} or {@link P50Bound#ms()}. */
    public P50Bound p50AtMost(double bound) {
        isNotNull();
        return new P50Bound(bound);
    }

    private String what() {
        return "it " + actual.status() + actual.actual().map(a -> " on " + a.id()).orElse("")
                + actual.reason().map(r -> ": " + r).orElse("");
    }

    private void fail(String expectation) {
        failWithMessage("%s", "Expected " + actual.label() + " " + expectation);
    }

    /** The second half of {@code p50AtMost(x)}: in what unit {@code x} is. */
    public final class P50Bound {
        private final double bound;

        private P50Bound(double bound) {
            this.bound = bound;
        }

        /** p50 ≤ bound × the native CPU run's p50 of the same inputs in the same run. */
        public CaseResultAssert timesNative() {
            OptionalDouble x = actual.timesNative();
            if (x.isEmpty()) {
                fail("to have a p50 to compare with native cpu's, but " + (actual.p50Ms().isEmpty() ? what()
                        : "the native CPU run has none: " + actual.nativeCpu().map(n -> n.status() + (n.reason() == null ? "" : ": "
                        + n.reason())).orElse("cpu was not part of the run")));
            } else if (x.getAsDouble() > bound) {
                fail(String.format(Locale.ROOT, "to have a p50 at most %s× native cpu's, but its p50 %.3g ms is %.2f× native cpu's %.3g ms",
                        bound, actual.p50Ms().getAsDouble(), x.getAsDouble(), actual.nativeCpu().orElseThrow().timings().orElseThrow().p50Ms()));
            }
            return CaseResultAssert.this;
        }

        /** p50 ≤ bound milliseconds. */
        public CaseResultAssert ms() {
            OptionalDouble p = actual.p50Ms();
            if (p.isEmpty()) {
                fail("to have a p50, but " + what());
            } else if (p.getAsDouble() > bound) {
                fail(String.format(Locale.ROOT, "to have a p50 at most %s ms, but it is %.3g ms", bound, p.getAsDouble()));
            }
            return CaseResultAssert.this;
        }
    }
}
