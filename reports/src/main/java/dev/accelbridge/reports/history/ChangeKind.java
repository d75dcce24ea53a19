package dev.accelbridge.reports.history;

import dev.accelbridge.core.PublicApi;
/** What the comparison of a cell's newest run with its history found. */
@PublicApi
public enum ChangeKind {
    /** Slower beyond both the threshold and the run-to-run noise. */
    REGRESSION,
    /** Faster beyond both the threshold and the run-to-run noise. */
    IMPROVEMENT,
    /** Within the threshold or within the noise. */
    UNCHANGED,
    /** Too few earlier runs of the same case on the same host to tell ("not enough history"). */
    INSUFFICIENT_DATA;

    /** How a report says it. */
    public String label() {
        return switch (this) {
            case REGRESSION -> "regression";
            case IMPROVEMENT -> "improvement";
            case UNCHANGED -> "unchanged";
            case INSUFFICIENT_DATA -> "not enough history";
        };
    }
}
