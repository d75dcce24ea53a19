package dev.accelbridge.api;

import dev.accelbridge.browser.observe.Observed;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.observe.ObservedRows;

import java.net.URI;
import java.util.List;

/**
 * What {@link AccelbridgeSession#observe} found in a user's app, stored as one run: a result for each onnxruntime-web
 * session the app made (its scenario {@code observed in an app}, its input set the page and the step that triggered it),
 * or one result saying that it made none.
 *
 * @param runId    the run in the store
 * @param url      the page observed
 * @param results  the rows, in the order the app made its sessions
 * @param timedOut whether the observation ended at its timeout, the app still busy or its page unanswering
 * @param notes    what the page and the observer said on the way (errors the page threw, what the observer passed over),
 *                 each one bounded line
 * @param unseen   the workers and frames the visit saw and could not observe (each is a row too): what they computed is
 *                 unseen, so such a visit passes no {@code --fail-on}
 * @param replays  the rows of the sessions replayed on other lanes ({@link ObserveOptions#replay}), in the same run; each
 *                 one's input set is its observed row's with {@code replay of } before it
 * @param partial  the sessions judged whose verdict covers fewer runs than they made, each as its row's input set and
 *                 how many runs of how many ({@code --fail-on partial})
 */
public record ObservedRun(String runId, URI url, List<RunResult> results, boolean timedOut, List<String> notes, List<Observed.Unseen> unseen,
                          List<RunResult> replays, List<String> partial) {
    /** Copies the lists. */
    public ObservedRun {
        results = List.copyOf(results);
        notes = List.copyOf(notes);
        unseen = List.copyOf(unseen);
        replays = List.copyOf(replays);
        partial = List.copyOf(partial);
    }

    /** The observed rows, then the replays'. */
    public List<RunResult> allRows() {
        List<RunResult> all = new java.util.ArrayList<>(results);
        all.addAll(replays);
        return all;
    }

    /** The rows of the sessions observed, without the rows that say what was unseen or that the page made none. */
    public List<RunResult> sessions() {
        return results.stream().filter(r -> !r.id().model().startsWith(ObservedRows.UNSEEN) && !r.id().model().equals(ObservedRows.NONE))
                .toList();
    }
}
