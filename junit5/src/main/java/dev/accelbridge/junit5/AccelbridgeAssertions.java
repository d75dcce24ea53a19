package dev.accelbridge.junit5;

import dev.accelbridge.api.CaseResult;
import dev.accelbridge.api.ObservedPage;
import dev.accelbridge.api.SessionRun;

/** Entry point for assertions on a case ({@code assertThat(result).ranOn(WEBGPU).matchesReference()}) or a run. */
public final class AccelbridgeAssertions {
    private AccelbridgeAssertions() {
    }

    /** Assertions on one case's result. */
    public static CaseResultAssert assertThat(CaseResult actual) {
        return new CaseResultAssert(actual);
    }

    /** Assertions on a user's observed page: {@code assertThat(observed).allSessionsMatchNative()}. */
    public static ObservedPageAssert assertThat(ObservedPage actual) {
        return new ObservedPageAssert(actual);
    }

    /** Assertions on a whole run: which dtype variant to ship ({@code assertThat(run).dtypeWithin(WEBGPU, 0.99)}). */
    public static SessionRunAssert assertThat(SessionRun actual) {
        return new SessionRunAssert(actual);
    }
}
