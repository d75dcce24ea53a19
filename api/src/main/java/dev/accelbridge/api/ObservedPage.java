package dev.accelbridge.api;

import dev.accelbridge.browser.observe.Observed;
import dev.accelbridge.browser.observe.PageObserver;
import dev.accelbridge.core.Caches;
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
 * caller's; closing this ends the native runtime it opened, if it opened one.
 */
public final class ObservedPage implements AutoCloseable {
    private final PageObserver observer;
    private NativeProviders natives;
    private Path models;
    private final Map<String, Optional<PageObserver.KeptModel>> kept = new HashMap<>();
    /** The tensors over the report's bound written to disk, by realm and document, then by the realm's held id. */
    private final Map<String, Map<Integer, Path>> tensors = new HashMap<>();

    ObservedPage(PageObserver observer) {
        this.observer = observer;
    }

    /** What the page's current document did, as the observer saw it. */
    public Observed observed() {
        return observer.read();
    }

    /**
     * Every observed session judged against native CPU: the page's document's, then its frames' and workers', each in the
     * order its realm made them.
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
                out.add(ObservedJudge.judge(s, x -> file, t -> t.tensor(id -> Optional.ofNullable(held.get(id))), natives(),
                        PageObserver.DEFAULT_KEEP));
            }
        }
        return out;
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
        if (natives != null) {
            natives.close();
        }
        try {
            Caches.deleteTree(models);
        } catch (IOException e) {
            // a temporary folder left behind is the system's to clear
        }
    }
}
