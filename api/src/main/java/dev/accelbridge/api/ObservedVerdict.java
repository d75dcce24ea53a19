package dev.accelbridge.api;

import dev.accelbridge.browser.observe.Observed;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Bisection;
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
     * A verdict: {@link Status#PASSED} when every output of the runs judged is within the case tolerance of native CPU's,
     * {@link Status#WRONG_OUTPUT} when one is not, unless its bisection settles it ({@link Bisecting.Bisected#settles()}:
     * one-step rounding of a quantize operator, reproduced on its own lane, is not a defect), as on every route.
     *
     * @param session the session
     * @param backend   the backend it ran on in the page, from the providers it appended
     * @param precision the dtype its graph computes in (a quantized or half-precision variant is held to its own native run
     *                  with the tolerance of its kind)
     * @param status  PASSED or WRONG_OUTPUT: the worst of its runs held to native
     * @param parity  the outputs of run {@code run} against native CPU's
     * @param run     the run the status is of (0: its first): the first that differs, else the first judged
     * @param judged  how many of its runs were held to native (every run recorded with its values)
     * @param bisecting what became of the bisection of its wrong run
     */
    record Judged(Observed.Session session, BackendId backend, Precision precision, Status status, Parity parity, int run, int judged,
                  Bisecting bisecting) implements ObservedVerdict {
        /** Judged and not (yet) bisected. */
        public Judged(Observed.Session session, BackendId backend, Precision precision, Status status, Parity parity, int run, int judged) {
            this(session, backend, precision, status, parity, run, judged, new Bisecting.NotAsked());
        }

        /** This verdict once bisected: {@code status} the verdict it settles to. */
        public Judged bisected(Status status, Bisecting b) {
            return new Judged(session, backend, precision, status, parity, run, judged, b);
        }

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

    /**
     * What became of a wrong session's bisection (its wrong run replayed on the lane it was observed in, where the run
     * bisects it), the same on every route: the command line's rows, a user's test's verdicts.
     */
    sealed interface Bisecting permits Bisecting.NotAsked, Bisecting.NotBisected, Bisecting.Bisected {
        /** Nothing asked for one: the session matched, or it was not judged. */
        record NotAsked() implements Bisecting {
        }

        /**
         * Wrong, and not bisected.
         *
         * @param why in words (its run did not keep every input's values, its replay gave no row or did not diverge, the time ran out)
         */
        record NotBisected(String why) implements Bisecting {
        }

        /**
         * Its replay was bisected.
         *
         * @param bisection what the bisection found
         * @param replayed  the replay's own outputs against native CPU's
         * @param reproduced whether the replay diverged as the app did (its largest error within a factor of two of the
         *                   app's): a bisection of another divergence explains nothing observed
         * @param settles   whether it settles the session (reproduced, and one-step rounding by the rule {@code run} settles by)
         */
        record Bisected(Bisection bisection, Parity replayed, boolean reproduced, boolean settles) implements Bisecting {
        }
    }
}
