package dev.accelbridge.reports.store;

import dev.accelbridge.core.RunResult;

/**
 * A cell of the matrix across runs: a case on one host. History and regressions compare results of the same
 * cell only.
 *
 * @param caseKey         the case
 * @param hostFingerprint the host
 */
public record CellKey(CaseKey caseKey, String hostFingerprint) {
    /** The cell of a result. */
    public static CellKey of(RunResult r) {
        return new CellKey(CaseKey.of(r), r.provenance() == null ? null : r.provenance().hostFingerprint());
    }

    @Override
    public String toString() {
        return caseKey + "@" + hostFingerprint;
    }
}
