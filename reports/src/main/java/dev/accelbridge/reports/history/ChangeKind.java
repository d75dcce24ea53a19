package dev.accelbridge.reports.history;

/** What a comparison of two runs of a cell found. */
public enum ChangeKind {
    /** Slower beyond the threshold, and significant. */
    REGRESSION,
    /** Faster beyond the threshold, and significant. */
    IMPROVEMENT,
    /** Within the threshold, or not significant (noise). */
    UNCHANGED,
    /** Too few samples on one side to tell. */
    INSUFFICIENT_DATA
}
