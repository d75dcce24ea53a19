package dev.accelbridge.browser.observe;

import com.microsoft.playwright.PlaywrightException;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.NamedTensor;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.stream.Stream;

/**
 * What a visit has read of its page: each realm's latest reading within the visit's bounds, each session's triggering
 * step, and its models and tensors kept on disk within the keep budget. {@link AppObserver} drives the visit; this
 * keeps what it read.
 */
@dev.accelbridge.core.PublicApi
public final class VisitReadings {
    /**
     * The most realms (documents, frames, workers) one visit keeps, counted here: found when tried, a page that reloads
     * itself after 64 sessions, or one that claims a new document on every reading, made thousands of rows and ran the
     * JVM out of memory, since the observer's bounds hold per document and a page makes as many as it likes.
     */
    public static final int MAX_REALMS = 64;
    /**
     * The most characters of reports one reading holds across its realms (each at most {@link PageObserver#MAX_REPORT}):
     * a reading keeps what it parses, so 64 realms of 64 MiB would hold gigabytes.
     */
    public static final long MAX_REPORT_CHARS = 256L << 20;
    /** The most sessions one visit keeps across its realms (each realm keeps at most 64); more are counted. */
    public static final int MAX_SESSIONS = 256;

    /**
     * One realm of the visit as last seen (a document of the page, a frame, a worker), its sessions' triggering steps and
     * their models kept on disk, the sessions whose model the budget had no room for; {@code url} the page's URL when it
     * was first seen.
     */
    public record Document(Observed seen, Map<Integer, String> stepOf, Map<Integer, PageObserver.KeptModel> models, Map<Integer, Path> tensors,
                    Set<Integer> overBudget, String url) {
        /** The realm and its document: a navigation, or another worker from the same script, is another. */
        String key() {
            return seen.realm().kind() + " " + seen.realm().url() + " " + seen.document();
        }

        /** A tensor of this document's runs with its values: from the report, or from the file its held values went to. */
        public Optional<NamedTensor> values(Observed.Tensor t) {
            return t.tensor(id -> Optional.ofNullable(tensors.get(id)));
        }
    }

    private final Map<String, Document> documents = new LinkedHashMap<>();
    /** Readings of realms past {@link #MAX_REALMS}, not kept. */
    private long refusedReadings;
    private final Set<Observed.Unseen> unentered = new LinkedHashSet<>();
    /** The realms whose latest reading could not be read, by kind and URL (a later reading of the realm clears it). */
    private final Map<String, Observed.Unseen> unreadable = new LinkedHashMap<>();
    private boolean entersWorkers = true;
    private long modelBytes;
    /** The steps done so far, each with when it was done (the page's opening with when it was asked for). */
    private final List<Map.Entry<String, Long>> done = new ArrayList<>();
    private final Path models;
    private final long keep;

    /** Readings whose models and tensors go under {@code models}, at most {@code keep} bytes in all. */
    public VisitReadings(Path models, long keep) {
        this.models = models;
        this.keep = keep;
    }

    /** Step {@code label} was done (or asked for) now. */
    void stepDone(String label) {
        done.add(Map.entry(label, System.currentTimeMillis()));
    }

    /** Every realm kept, as last read. */
    public List<Document> documents() {
        return List.copyOf(documents.values());
    }

    /** Readings of realms past {@link #MAX_REALMS}, not kept. */
    long refusedReadings() {
        return refusedReadings;
    }

    /** What was seen and could not be observed, decided over every realm read in the visit. */
    List<Observed.Unseen> unseen() {
        return PageObserver.unseen(documents.values().stream().map(Document::seen).toList(), List.copyOf(unentered),
                List.copyOf(unreadable.values()), entersWorkers);
    }

    /**
     * The step that triggered a session: the last one done before the page asked for it (a session an app makes while a
     * click waits for its button is the opening's, not the click's).
     */
    private String stepAt(Double createdAt) {
        String at = done.isEmpty() ? "open" : done.get(done.size() - 1).getKey();
        if (createdAt != null) {
            for (Map.Entry<String, Long> d : done) {
                if (d.getValue() <= createdAt) {
                    at = d.getKey();
                }
            }
        }
        return at;
    }

    /**
     * One reading: every realm's sessions (the page's document, its frames, its workers), each new one given the step
     * that triggered it; what was seen and not observed is kept. Returns what changes when a session is made or run.
     */
    public String read(PageObserver observer, Supplier<String> pageUrl) {
        PageObserver.Reading reading;
        try {
            reading = observer.readAll(MAX_REPORT_CHARS);
        } catch (PlaywrightException | AccelbridgeException e) {
            return "unreadable"; // a document between navigations, or one whose scripts have not started
        }
        unentered.addAll(reading.unentered());
        entersWorkers = reading.entersWorkers();
        StringBuilder state = new StringBuilder();
        for (Observed.Unseen u : reading.unreadable()) {
            unreadable.put(u.kind() + " " + u.url(), u);
            state.append("unreadable ").append(u.url()).append(';');
        }
        for (Observed read : reading.realms()) {
            unreadable.remove(read.realm().kind().word() + " " + read.realm().url());
            String key = new Document(read, Map.of(), Map.of(), Map.of(), Set.of(), "").key();
            Document before = documents.get(key);
            if (before == null && documents.size() >= MAX_REALMS) {
                refusedReadings++;
                state.append("+refused;");
                continue;
            }
            Observed seen = withinVisit(read, documents.entrySet().stream().filter(e -> !e.getKey().equals(key))
                    .mapToInt(e -> e.getValue().seen().sessions().size()).sum());
            Document doc = before == null ? new Document(seen, new LinkedHashMap<>(), new LinkedHashMap<>(), new LinkedHashMap<>(),
                    new LinkedHashSet<>(), pageUrl.get()) : new Document(seen, before.stepOf(), before.models(), before.tensors(),
                    before.overBudget(), before.url());
            documents.put(key, doc);
            // found when tried: a page that reloads while its models are kept left each further session's download to
            // time out (10 s each, 64 a document); one that does not come stops this reading's keeping in the realm
            boolean keeping = true;
            for (Observed.Session s : seen.sessions()) {
                doc.stepOf().putIfAbsent(s.id(), stepAt(s.createdAt()));
                long size = s.byteLength() + s.externalBytes();
                if (!doc.models().containsKey(s.id()) && (!s.modelKept() || modelBytes + size > keep)) {
                    // the page held no copy for the reader (its budget), or the visit's has no room: not the page's leaving
                    doc.overBudget().add(s.id());
                }
                if (keeping && s.modelKept() && !doc.models().containsKey(s.id()) && modelBytes + size <= keep) {
                    Optional<PageObserver.KeptModel> kept = Optional.empty();
                    try {
                        kept = observer.keep(seen, s, models, keep - modelBytes);
                    } catch (PlaywrightException e) {
                        // read again at the next poll while the realm is there
                    }
                    keeping = kept.isPresent();
                    kept.ifPresent(k -> {
                        modelBytes += k.size();
                        doc.models().put(s.id(), k);
                    });
                }
            }
            keepTensors(observer, seen, doc);
            int runs = seen.sessions().stream().mapToInt(Observed.Session::runCount).sum();
            state.append(key).append('/').append(seen.sessions().size()).append('/').append(seen.droppedSessions()).append('/')
                    .append(runs).append(';');
        }
        return state.toString();
    }

    /**
     * {@code read} with no more sessions than the visit has room for beside the {@code others} its other realms keep (the
     * rest counted as dropped).
     */
    public static Observed withinVisit(Observed read, int others) {
        int room = Math.max(0, MAX_SESSIONS - others);
        if (read.sessions().size() <= room) {
            return read;
        }
        return new Observed(read.realm(), read.document(), List.copyOf(read.sessions().subList(0, room)),
                read.droppedSessions() + read.sessions().size() - room, read.modules(), read.notes(), read.started(), read.timerStepMs());
    }

    /** The realm's tensors over the report's bound, to disk within what the budget has left after the models. */
    private void keepTensors(PageObserver observer, Observed seen, Document doc) {
        boolean waiting = seen.sessions().stream().flatMap(s -> s.runs().stream())
                .flatMap(r -> Stream.concat(r.inputs().stream(), r.outputs().stream()))
                .anyMatch(t -> t.held() != null && !doc.tensors().containsKey(t.held()));
        if (!waiting) {
            return;
        }
        try {
            Map<Integer, Path> kept = observer.keepTensors(seen, doc.tensors().keySet(), models, keep - modelBytes);
            for (Path f : kept.values()) {
                modelBytes += f.toFile().length();
            }
            doc.tensors().putAll(kept);
        } catch (PlaywrightException e) {
            // read again at the next poll while the realm is there
        }
    }

    /** Where each session's model and external data came from, looked up while the browser still holds the responses. */
    Map<String, ModelSources.Source> sources(ModelSources sources) {
        Map<String, ModelSources.Source> out = new LinkedHashMap<>();
        if (sources == null) {
            return out;
        }
        for (Document d : documents.values()) {
            for (Observed.Session s : d.seen().sessions()) {
                // the hash of the bytes kept, computed here, where they were; else the page's own
                String model = d.models().containsKey(s.id()) ? d.models().get(s.id()).sha256() : s.sha256();
                if (model != null) {
                    out.computeIfAbsent(model, sha -> sources.of(sha, s.byteLength()));
                }
                s.external().stream().filter(e -> e.sha256() != null && e.byteLength() != null)
                        .forEach(e -> out.computeIfAbsent(e.sha256(), sha -> sources.of(sha, e.byteLength())));
            }
        }
        return out;
    }
}
