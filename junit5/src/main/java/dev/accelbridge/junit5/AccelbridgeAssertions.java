package dev.accelbridge.junit5;

import dev.accelbridge.api.CaseResult;

/** Entry point for assertions on a case: {@code assertThat(result).ranOn(WEBGPU).matchesReference()}. */
public final class AccelbridgeAssertions {
    private AccelbridgeAssertions() {
    }

    /** Assertions on one case's result. */
    public static CaseResultAssert assertThat(CaseResult actual) {
        return new CaseResultAssert(actual);
    }
}
