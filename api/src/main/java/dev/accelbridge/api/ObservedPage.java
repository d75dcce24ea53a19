package dev.accelbridge.api;

import dev.accelbridge.browser.launch.WebGpuAdapter;
import dev.accelbridge.browser.observe.Observed;
import dev.accelbridge.browser.observe.PageObserver;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.Caches;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.observe.ObservedBisections;
import dev.accelbridge.observe.ObservedJudge;
import dev.accelbridge.observe.ObservedReplays;
import dev.accelbridge.observe.ObservedRows;
import dev.accelbridge.run.NativeProviders;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.List;

/**
 * A user's page under observation ({@link Accelbridge#observe}): every onnxruntime-web session it makes
 * ({@link #observed()}), and each judged as a case is ({@link #verdicts()}): its model run natively on the CPU with the
 * inputs the page fed, the outputs held to the page's by the case tolerance of the backend it ran on. The page stays the
 * caller's; closing this ends the native runtime and the replays' session it opened, if it opened them.
 */
public final class ObservedPage implements AutoCloseable {
    private final PageObserver observer;
    private NativeProviders natives;
    private Path models;
    private final Map<String, Optional<PageObserver.KeptModel>> kept = new HashMap<>();
    /** The tensors over the report's bound written to disk, by realm and document, then by the realm's held id. */
    private final Map<String, Map<Integer, Path>> tensors = new HashMap<>();
    /** A wrong session's replay on its own lane, by session. */
    private final Map<String, Optional<RunResult>> replayed = new HashMap<>();
    private AccelbridgeSession replays;

    ObservedPage(PageObserver observer) {
        this.observer = observer;
    }

    /** What the page's current document did, as the observer saw it. */
    public Observed observed() {
        return observer.read();
    }

    /**
     * Every observed session judged against native CPU: the page's document's, then its frames' and workers', each in the
     * order its realm made them. A wrong session is bisected on the lane it was observed in and settled by that bisection,
     * as {@code accelbridge observe} does ({@link ObservedVerdict.Judged#bisecting()}): its replay runs in a session of
     * this observation's own (its browsers, a store in a temporary folder), once a session.
     */
    public List<ObservedVerdict> verdicts() {
        List<ObservedVerdict> out = new ArrayList<>();
        for (Observed realm : observer.readAll().realms()) {
            for (Observed.Session s : realm.sessions()) {
                // kept once: the realm lets its copy go when the file is whole, so a second reading finds it here
                String key = realm.realm() + " " + realm.document() + " " + s.id();
                Optional<PageObserver.KeptModel> file = kept.computeIfAbsent(key, k -> observer.keep(realm, s, models(), PageObserver.DEFAULT_KEEP));
                Map<Integer, Path> held = tensors.computeIfAbsent(realm.realm() + " " + realm.document(), k -> new HashMap<>());
                held.putAll(observer.keepTensors(realm, held.keySet(), models(), PageObserver.DEFAULT_KEEP));
                ObservedJudge.Model model = ObservedJudge.Model.of(file, () -> s.modelKept() ? ObservedJudge.Model.letGo(s)
                        : ObservedJudge.Model.overBudget(s, PageObserver.DEFAULT_KEEP));
                out.add(ObservedJudge.verdict(s, model, t -> t.tensor(id -> Optional.ofNullable(held.get(id))), natives(),
                        Optional.empty(), onLane(key, realm, file)));
            }
        }
        return out;
    }

    /** Replays a wrong run on its session's lane in this observation's own session, once a session (verdicts are asked often). */
    private ObservedBisections.Replayer onLane(String key, Observed realm, Optional<PageObserver.KeptModel> file) {
        return (session, model, inputs, backend, left) -> replayed.computeIfAbsent(key, k -> {
            ObservedReplays.Replayable run = new ObservedReplays.Replayable(model, ObservedRows.model(session, file.map(PageObserver.KeptModel::sha256)),
                    ObservedRows.inputSet(realm.document(), realm.realm(), "observed page"), inputs, ObservedReplays.options(session));
            return ObservedReplays.onOwnLane(run, session, backend, BrowserKind.CHROMIUM, observer.browserVersion(), WebGpuAdapter.AUTO, null,
                    replays()::run, new ArrayList<>(), left).stream().filter(r -> r.requested() == backend).findFirst();
        });
    }

    /** The session a wrong session's replay runs in: opened at its first, on a store in this observation's folder. */
    private AccelbridgeSession replays() {
        if (replays == null) {
            replays = Accelbridge.create(SessionOptions.builder().optStore(models().resolve("replays.duckdb"))
                    .optOutDir(models().resolve("replays")).optOrigin("observed page").build());
        }
        return replays;
    }

    /** Where the models judged are kept on disk: a folder of this observation's, deleted when it is closed. */
    private Path models() {
        if (models == null) {
            try {
                models = Files.createTempDirectory("accelbridge-observed");
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return models;
    }

    /** What the page's realms did and what was seen and not observed (a worker the observer could not enter). */
    public PageObserver.Reading reading() {
        return observer.readAll();
    }

    private NativeProviders natives() {
        if (natives == null) {
            natives = NativeProviders.load();
        }
        return natives;
    }

    @Override
    public void close() {
        try {
            if (replays != null) {
                replays.close();
            }
        } finally {
            if (natives != null) {
                natives.close();
            }
        }
        try {
            Caches.deleteTree(models);
        } catch (IOException e) {
            // a temporary folder left behind is the system's to clear
        }
    }
}
