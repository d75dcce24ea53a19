package dev.accelbridge.observe;

import dev.accelbridge.api.ObserveOptions;
import dev.accelbridge.api.ObservedRun;
import dev.accelbridge.api.ObservedVerdict;
import dev.accelbridge.api.RunRequest;
import dev.accelbridge.api.SessionRun;
import dev.accelbridge.browser.observe.AppObserver;
import dev.accelbridge.browser.observe.Observed;
import dev.accelbridge.browser.observe.ObserverBrowser;
import dev.accelbridge.browser.observe.PageObserver;
import dev.accelbridge.browser.observe.VisitReadings;
import dev.accelbridge.core.Caches;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Seconds;
import dev.accelbridge.core.Untrusted;
import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.run.NativeProviders;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * One observation of a user's app as a run of the store ({@link AccelbridgeSession#observe}): the visit, each session of
 * each of its documents judged and made a row, or the one row of a page that made none.
 */
public final class ObservedRuns {
    private ObservedRuns() {
    }

    /**
     * Observes the app as {@code o} says and stores its rows in run {@code runId}; where {@code o} asks for a replay, each
     * session is replayed on its targets through {@code runner}, the replay's rows added to the same run.
     */
    public static ObservedRun observe(ObserveOptions o, String runId, HostInfo host, NativeProviders natives, MatrixStore store,
                               Function<RunRequest, SessionRun> runner) {
        Instant started = Instant.now();
        Path models;
        try {
            models = Files.createTempDirectory("accelbridge-observed");
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        try {
            return observe(o, runId, host, natives, store, started, AppObserver.visit(o.visit(), models), runner);
        } finally {
            try {
                Caches.deleteTree(models);
            } catch (IOException e) {
                // a temporary folder left behind is the system's to clear
            }
        }
    }

    private static ObservedRun observe(ObserveOptions o, String runId, HostInfo host, NativeProviders natives, MatrixStore store,
                                       Instant started, AppObserver.Visit visit, Function<RunRequest, SessionRun> runner) {
        List<ObservedReplays.Replayable> replayable = new ArrayList<>();
        List<RunResult> replays = new ArrayList<>();
        List<String> visitNotes = new ArrayList<>(visit.notes());
        ObservedRows.Where where = new ObservedRows.Where(runId, started, o.url(), o.browser(), visit.browserVersion(), host,
                ObserverBrowser.V8_FLAGS);
        List<RunResult> rows = new ArrayList<>();
        List<String> partial = new ArrayList<>();
        // judging ends with the visit's own bound: its timeout and the grace a page that does not answer is given
        Instant deadline = started.plus(o.timeout()).plus(AppObserver.grace(o.timeout()));
        List<VisitReadings.Document> pages = visit.documents().stream().filter(d -> d.seen().realm().kind() == Observed.Realm.Kind.PAGE).toList();
        for (VisitReadings.Document d : visit.documents()) {
            List<String> notes = new ArrayList<>(d.seen().notes().stream().limit(10).toList());
            if (d.seen().realm().kind() == Observed.Realm.Kind.PAGE && pages.indexOf(d) < pages.size() - 1) {
                notes.add("the page left this document (" + Untrusted.bounded(d.url(), 200) + ") for another");
            }
            if (d.seen().droppedSessions() > 0) {
                notes.add(d.seen().droppedSessions() + " more sessions of this document were counted, not kept (at most 64 a realm, "
                        + VisitReadings.MAX_SESSIONS + " a visit are)");
            }
            for (var s : d.seen().sessions()) {
                Optional<PageObserver.KeptModel> kept = Optional.ofNullable(d.models().get(s.id()));
                Optional<Path> model = kept.map(PageObserver.KeptModel::file);
                String step = d.stepOf().getOrDefault(s.id(), "open");
                // while the models are still on disk: a wrong session is bisected on its own lane, as run bisects a case,
                // and settled by the same rule before its row is stored
                ObservedVerdict v = ObservedJudge.verdict(s, ObservedJudge.Model.of(d, s, o.keep()), d::values, natives, Optional.of(deadline),
                        onLane(o, visit.browserVersion(), runId, runner, ObservedRows.model(s, kept.map(PageObserver.KeptModel::sha256)),
                                ObservedRows.inputSet(o.url(), d.seen().realm(), step), visitNotes, replays));
                List<String> rowNotes = new ArrayList<>(notes);
                rowNotes.addAll(ObservedRows.sources(s, kept.map(PageObserver.KeptModel::sha256), visit::source));
                RunResult row = ObservedRows.of(where, d.seen().realm(), step, v, ObservedJudge.precision(model),
                        kept.map(PageObserver.KeptModel::sha256), rowNotes, d.seen().timerStepMs());
                rows.add(row);
                if (v instanceof ObservedVerdict.Judged j && !j.coversEveryRun()) {
                    partial.add(row.id().inputSet() + ": " + j.judged() + " of its " + s.runCount() + " runs");
                }
                ObservedReplays.of(s, model, row, d::values).ifPresent(replayable::add);
            }
        }
        if (rows.isEmpty()) {
            rows.add(ObservedRows.none(where, "the page made no onnxruntime-web session " + (visit.unseen().isEmpty() ? "" : "that could be seen ")
                    + "in " + Duration.between(started, Instant.now()).toSeconds() + " s (" + (visit.timedOut() ? "until the timeout of "
                    + Seconds.of(o.timeout()) + " s" : "then quiet for " + Seconds.of(o.idle()) + " s") + ")", visit.notes()));
        }
        visit.unseen().forEach(u -> rows.add(ObservedRows.unseen(where, u)));
        store.writeAll(rows);
        // then each kept session is replayed on the other lanes
        o.replay().ifPresent(t -> replays.addAll(ObservedReplays.replay(replayable, t, runId, runner, visitNotes)));
        return new ObservedRun(runId, o.url(), rows, visit.timedOut(), visitNotes, visit.unseen(), replays, partial);
    }

    /**
     * The command line's way to replay a wrong run on its session's lane: a run of the session, continuing the
     * observation's run {@code runId}, its rows added to {@code replays}.
     */
    private static ObservedBisections.Replayer onLane(ObserveOptions o, String browserVersion, String runId, Function<RunRequest, SessionRun> runner,
                                                      String name, String inputSet, List<String> notes, List<RunResult> replays) {
        return (session, file, inputs, backend, left) -> {
            List<RunResult> replayed = ObservedReplays.onOwnLane(new ObservedReplays.Replayable(file, name, inputSet, inputs,
                    ObservedReplays.options(session)), session, backend, o.browser(), browserVersion, o.adapter(), runId, runner, notes, left);
            replays.addAll(replayed);
            return replayed.stream().filter(r -> r.requested() == backend).findFirst();
        };
    }
}
