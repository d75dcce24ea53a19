package dev.accelbridge.api;

import dev.accelbridge.browser.observe.Observed;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.Status;

/**
 * An observed session judged as a case is: its model, run natively on the CPU with the inputs the page fed, against the
 * outputs the page got ({@link Judged}), or why it could not be judged ({@link NotJudged}: no verdict is made up).
 */
public sealed interface ObservedVerdict permits ObservedVerdict.Judged, ObservedVerdict.Failed, ObservedVerdict.NotJudged {
    /** The session judged. */
    Observed.Session session();

    /**
     * A verdict: {@link Status#PASSED} when every output of the run judged is within the case tolerance of native CPU's,
     * {@link Status#WRONG_OUTPUT} when one is not.
     *
     * @param session the session
     * @param backend   the backend it ran on in the page, from the providers it appended
     * @param precision the dtype its graph computes in (a quantized or half-precision variant is held to its own native run
     *                  with the tolerance of its kind)
     * @param status  PASSED or WRONG_OUTPUT: the worst of its runs held to native
     * @param parity  the outputs of run {@code run} against native CPU's
     * @param run     the run the status is of (0: its first): the first that differs, else the first judged
     * @param judged  how many of its runs were held to native (every run recorded with its values)
     */
    record Judged(Observed.Session session, BackendId backend, Precision precision, Status status, Parity parity, int run, int judged)
            implements ObservedVerdict {
        /**
         * Whether the verdict covers every run the session made: a status judged on fewer runs says only what those runs
         * showed ({@code --fail-on partial}, {@code everyRunJudged()}).
         */
        public boolean coversEveryRun() {
            return judged >= session.runCount();
        }
    }

    /**
     * onnxruntime-web did not make the session, or one of its runs failed in the page: {@link Status#FAILED}.
     *
     * @param session the session
     * @param run     the first run that failed (0: its first), or -1 when the session was not made
     * @param error   onnxruntime-web's words, or its status code where it gave none
     */
    record Failed(Observed.Session session, int run, String error) implements ObservedVerdict {
        /** In words: what failed, and onnxruntime-web's own words for it. */
        public String describe() {
            return (run < 0 ? "onnxruntime-web could not make the app's session: " : "run " + (run + 1) + " of it failed in the page: ") + error;
        }
    }

    /**
     * No verdict, and why: the session was not made, its model was not kept, no run was recorded with its values, or
     * native CPU could not run it.
     *
     * @param session the session
     * @param reason  why, in words
     */
    record NotJudged(Observed.Session session, String reason) implements ObservedVerdict {
    }
}
