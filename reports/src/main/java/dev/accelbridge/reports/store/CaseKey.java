package dev.accelbridge.reports.store;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.RunResult;

/**
 * Identifies one case of a run plan, independent of its outcome: what {@code run --resume} skips when it is
 * already in the store. Browser is the browser name ({@code chromium}) or {@code native}; its version is not
 * part of the key, so a resumed run after a browser update still recognises finished cases.
 *
 * @param suite    the model family
 * @param model    the model name
 * @param inputSet the input set
 * @param requested the requested backend
 * @param browser  browser name or {@code native}
 */
public record CaseKey(ModelFamily suite, String model, String inputSet, BackendId requested, String browser) {
    /** The key of a result. */
    public static CaseKey of(RunResult r) {
        return new CaseKey(r.suite(), r.model(), r.inputSet(), r.requested(), browserOf(r));
    }

    /** Browser name of a result, or {@code native}. */
    public static String browserOf(RunResult r) {
        return r.provenance() == null || r.provenance().browser() == null ? "native" : r.provenance().browser();
    }

    /** Parses the {@link #toString()} form. */
    public static CaseKey parse(String text) {
        String[] p = text.split("/", -1);
        if (p.length != 5) {
            throw new IllegalArgumentException("not a case key (suite/model/inputSet/requested/browser): " + text);
        }
        return new CaseKey(ModelFamily.parse(p[0]), p[1], p[2], BackendId.parse(p[3]), p[4]);
    }

    /** {@code suite/model/inputSet/requested/browser}, as stored in {@code results.case_key}. */
    @Override
    public String toString() {
        return suite.id() + "/" + model + "/" + inputSet + "/" + requested.id() + "/" + browser;
    }
}
