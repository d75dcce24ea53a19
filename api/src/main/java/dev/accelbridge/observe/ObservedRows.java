package dev.accelbridge.observe;

import dev.accelbridge.api.ObservedVerdict;
import dev.accelbridge.browser.launch.BrowserMajorAxis;
import dev.accelbridge.browser.page.OrtWebAxis;
import dev.accelbridge.browser.observe.ModelSources;
import dev.accelbridge.browser.observe.Observed;
import dev.accelbridge.browser.observe.PageObserver;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Bytes;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.ScenarioId;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.Timings;
import dev.accelbridge.core.Untrusted;
import dev.accelbridge.run.Bisections;

import java.net.URI;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * An observed session as a row of the matrix: its model by sha256, the page and the step as its input set, the backend
 * its providers name, the browser and the engine that loaded as its lane, the scenario {@link ScenarioId#OBSERVED}; its
 * verdict as its status, its runs' wall times in the page as its figures. The one mapping from what was observed to
 * what is stored.
 */
public final class ObservedRows {
    /** What the model of a row for a worker or frame seen and not observed begins with. */
    public static final String UNSEEN = "unseen ";
    /** The model of the one row of a page that made no session. */
    public static final String NONE = "no onnxruntime-web session";
    /** The most characters of the page and step an input set keeps. */
    public static final int MAX_INPUT_SET = 240;

    /** Where a row was observed: the run, the page, the browser, this host. */
    public record Where(String runId, Instant startedAt, URI url, BrowserKind browser, String browserVersion, HostInfo host, String v8Flags) {
        /** What the row's provenance says of the runtime: the onnxruntime-web release, the V8 flags the browser ran with. */
        Map<String, String> runtime(String ortWebVersion) {
            Map<String, String> m = new java.util.TreeMap<>();
            if (ortWebVersion != null) {
                m.put("onnxruntime-web", ortWebVersion);
            }
            if (v8Flags != null) {
                m.put("v8-flags", v8Flags);
            }
            return m;
        }
    }

    private ObservedRows() {
    }

    /**
     * The row of a session made in {@code realm}, triggered by {@code step}; its dtype its graph's where its model was kept
     * and read. A session off the page's own thread says where in its input set (two apps' threads are two cells). Its
     * model is named by {@code kept}, the sha256 of its bytes computed here where they were kept; else by the page's own
     * hash, said as such.
     */
    public static RunResult of(Where w, Observed.Realm realm, String step, ObservedVerdict v, Optional<Precision> graphPrecision,
                        Optional<String> kept, List<String> notes, Double timerStepMs) {
        Observed.Session s = v.session();
        List<String> warnings = new ArrayList<>(notes);
        String sha = kept.orElse(s.sha256());
        if (kept.isEmpty() && s.sha256() != null) {
            warnings.add("its sha256 is the page's own hash of it, not checked here (its bytes were not kept)");
        } else if (kept.isPresent() && s.sha256() != null && !s.sha256().equals(sha)) {
            warnings.add("the page's own hash of it (" + s.sha256() + ") is not the sha256 of the bytes onnxruntime-web was given: not taken");
        }
        BackendId backend = s.backend().orElse(BackendId.WEBNN_CPU);
        if (s.backend().isEmpty()) {
            warnings.add("a WebNN device type Accelbridge does not know: " + s.providerOptions());
        }
        Optional<Precision> known = v instanceof ObservedVerdict.Judged j ? Optional.of(j.precision()) : graphPrecision;
        if (known.isEmpty()) {
            warnings.add("its dtype is not known (its model was not kept): the row says fp32, which the cell needs, for it");
        }
        Precision precision = known.orElse(Precision.FP32);
        List<Observed.Tensor> inputs = s.runs().isEmpty() ? List.of() : s.runs().get(0).inputs();
        String shapes = inputs.isEmpty() ? null : inputs.stream().map(t -> t.name() + "=" + (t.shape() == null ? "" : t.shape().stream()
                .map(String::valueOf).collect(Collectors.joining("x")))).collect(Collectors.joining(";"));
        int batch = CaseId.batchOfShapes(inputs.stream().map(t -> t.dims().orElse(null)).toList());
        LaneId lane = lane(w.browser(), w.browserVersion(), s);
        CaseId id = new CaseId(ModelFamily.OTHER, model(s, kept), sha, inputSet(w.url(), realm, step), shapes, precision, batch,
                backend, lane, ScenarioId.OBSERVED);
        // on WebGPU, the adapter the app's realm got, named and told software or not by the rule a lane's probe is (found
        // when tried: observed rows carried no adapter, whatever --webgpu-adapter asked for)
        var adapter = backend == BackendId.WEBGPU && s.adapter() != null ? s.adapter().probe() : null;
        Provenance provenance = Provenance.of(w.browser().id(), w.browserVersion(), "playwright", adapter == null ? null : adapter.label(),
                adapter == null ? null : adapter.software(), s.providers(), w.runtime(s.ortWebVersion())).withHost(w.host());
        Optional<Timings> timings = timings(s, timerStepMs);
        if (v instanceof ObservedVerdict.Judged j) {
            // judged: its backend made the outputs compared; timed where a clock gave its runs a figure
            Outcome ran = timings.<Outcome>map(t -> new Outcome.Ran(backend, t, Optional.of(j.parity())))
                    .orElseGet(() -> new Outcome.Stopped(backend, Optional.of(j.parity())));
            return judged(RunResult.of(w.runId(), w.startedAt(), id, ran, j.parity().within() ? Status.PASSED : Status.WRONG_OUTPUT,
                    j.parity().within() ? null : "outputs of its run " + (j.run() + 1) + " differ from native CPU's on the same inputs: "
                            + j.parity().describe(), provenance, null, List.of(), judgedRuns(warnings, j)), j);
        }
        // failed or not judged: the page timed it, but no backend is credited with what it made
        Outcome unplaced = timings.<Outcome>map(Outcome.Unplaced::new).orElseGet(Outcome.NotRun::new);
        if (v instanceof ObservedVerdict.Failed f) {
            return RunResult.of(w.runId(), w.startedAt(), id, unplaced, Status.FAILED, Untrusted.bounded(f.describe(), 600), provenance,
                    null, List.of(), warnings);
        }
        return RunResult.of(w.runId(), w.startedAt(), id, unplaced, Status.UNAVAILABLE, "not judged: " + ((ObservedVerdict.NotJudged) v).reason(),
                provenance, null, List.of(), warnings);
    }

    /** The row of a judged session as its comparison made it, then as its bisection left it: the verdict's own status. */
    private static RunResult judged(RunResult compared, ObservedVerdict.Judged j) {
        RunResult r = compared;
        if (j.bisecting() instanceof ObservedVerdict.Bisecting.NotBisected n) {
            r = compared.withStatus(compared.status(), compared.reason() + "; not bisected: " + n.why());
        } else if (j.bisecting() instanceof ObservedVerdict.Bisecting.Bisected b) {
            RunResult with = compared.withAnalysis(compared.analysis().withBisection(b.bisection()));
            r = b.settles() ? Bisections.settled(with, b.bisection()) : b.reproduced() ? with
                    : with.withStatus(with.status(), with.reason() + (b.replayed() == null ? "; not settled: its replay on its own lane gave no parity"
                    : String.format(Locale.ROOT, "; not settled: its replay on its own lane diverged by %.3g, not the observed %.3g,"
                    + " so its bisection is of another divergence", b.replayed().maxAbsErr(), j.parity().maxAbsErr())));
        }
        if (r.status() != j.status()) {
            throw new IllegalStateException("the row of session " + j.session().id() + " says " + r.status() + ", its verdict " + j.status());
        }
        return r;
    }

    /** A session's model as its row names it: by the sha256 of its bytes kept here, else by the page's hash, else by its id. */
    public static String model(Observed.Session s, Optional<String> kept) {
        String sha = kept.orElse(s.sha256());
        return "app model " + (sha == null ? "#" + s.id() : sha.substring(0, 12));
    }

    /** A session's input set: the page, the step that triggered it, and where it ran when not on the page's own thread. */
    public static String inputSet(Object url, Observed.Realm realm, String step) {
        return inputSet(url, realm.label().isEmpty() ? step : step + " · " + realm.label());
    }

    /**
     * Where the session's model and each of its external-data files came from, as the network layer showed them
     * ({@code source} by sha256: {@code kept}'s, computed here, where its bytes were kept): a URL only where a response's
     * body was hashed to the bytes, else why none is named.
     */
    public static List<String> sources(Observed.Session s, Optional<String> kept, Function<String, Optional<ModelSources.Source>> source) {
        List<String> out = new ArrayList<>();
        source.apply(kept.orElse(s.sha256())).ifPresent(m -> out.add(said("its model", m)));
        for (Observed.External e : s.external()) {
            source.apply(e.sha256()).ifPresent(m -> out.add(said("its external data " + Untrusted.quote(e.path()), m)));
        }
        return out;
    }

    private static String said(String what, ModelSources.Source m) {
        return m.url().map(u -> what + " came from " + u + " (" + m.evidence() + ")").orElse(what + "'s URL is not verified: " + m.evidence());
    }

    private static List<String> judgedRuns(List<String> warnings, ObservedVerdict.Judged j) {
        int runs = j.session().runCount();
        if (!j.coversEveryRun()) {
            long valued = j.session().runs().stream().filter(ObservedJudge::comparable).count();
            warnings.add("its verdict covers " + j.judged() + " of its " + runs + " runs: " + (runs - valued) + " were recorded without "
                    + "the values to judge them (past the " + Bytes.iec(PageObserver.VALUE_BYTES) + " of values a realm keeps, "
                    + "those kept spread evenly over the session; or kept on the GPU; or past the 1000 runs a session records)"
                    + (valued > j.judged() ? ", " + (valued - j.judged()) + " could not be fed natively" : ""));
        }
        return warnings;
    }

    /** The row of a worker or frame the visit saw and could not observe: unseen, never absent. */
    public static RunResult unseen(Where w, Observed.Unseen u) {
        CaseId id = new CaseId(ModelFamily.OTHER, UNSEEN + u.kind(), null, inputSet(w.url(), u.kind() + " " + u.url()), null,
                Precision.FP32, 1, BackendId.WASM, lane(w.browser(), w.browserVersion(), null), ScenarioId.OBSERVED);
        return RunResult.of(w.runId(), w.startedAt(), id, new Outcome.NotRun(), Status.UNAVAILABLE, Untrusted.bounded(u.describe(), 600),
                Provenance.of(w.browser().id(), w.browserVersion(), "playwright", null, null, List.of(), w.runtime(null)).withHost(w.host()),
                null, List.of(), List.of());
    }

    /** The one row of a page that made no session. */
    public static RunResult none(Where w, String why, List<String> notes) {
        CaseId id = new CaseId(ModelFamily.OTHER, NONE, null, inputSet(w.url(), "whole visit"), null,
                Precision.FP32, 1, BackendId.WASM, lane(w.browser(), w.browserVersion(), null), ScenarioId.OBSERVED);
        return RunResult.of(w.runId(), w.startedAt(), id, new Outcome.NotRun(), Status.UNAVAILABLE, why,
                Provenance.of(w.browser().id(), w.browserVersion(), "playwright", null, null, List.of(), w.runtime(null)).withHost(w.host()),
                null, List.of(), notes);
    }

    /** The lane a session ran in: the browser and its release, the onnxruntime-web release and engine the app loaded. */
    public static LaneId lane(BrowserKind browser, String browserVersion, Observed.Session s) {
        LaneId lane = LaneId.of(browser).with(BrowserMajorAxis.DIMENSION.name(), browser.release(browserVersion));
        if (s == null) {
            return lane;
        }
        // the release the app loaded, as it said of itself; never assumed to be the one Accelbridge pins
        LaneId released = s.ortWebVersion() == null ? lane : lane.with(OrtWebAxis.DIMENSION.name(), s.ortWebVersion());
        return s.ortWebEngine().map(e -> e.keyed(released)).orElse(released);
    }

    private static String inputSet(Object url, String step) {
        return Untrusted.bounded(url + " · " + step, MAX_INPUT_SET);
    }

    /** The longest wall time a page's figure may say: a day, past any visit. */
    public static final double MAX_MS = 86_400_000;

    /** Whether {@code ms} can be a wall time the page measured: finite, not negative, within a day. */
    public static boolean aDuration(Double ms) {
        return ms != null && Double.isFinite(ms) && ms >= 0 && ms <= MAX_MS;
    }

    /** The session's creation as its load, its first run as the cold one, its later runs as the samples; none if it never ran. */
    public static Optional<Timings> timings(Observed.Session s, Double timerStepMs) {
        List<Double> ms = s.runs().stream().map(Observed.Run::ms).filter(ObservedRows::aDuration).toList();
        if (!s.created() || ms.isEmpty()) {
            return Optional.empty();
        }
        // a figure no clock gives (found when tried: a page whose performance.now gave 1e300 once stored a load of -1e300 ms)
        // is none, as a joining device's is
        double load = aDuration(s.createMs()) ? s.createMs() : Double.NaN;
        Timings t = Timings.of(load, ms.get(0), 0, ms.size() > 1 ? ms.subList(1, ms.size()) : ms);
        // the clock that timed them, as a lane's figures carry theirs: runs within a few of its steps sit on its floor, and
        // are never ranked (found when tried: a p50 of two 0.1 ms ticks graded a CPU's speed HIGH)
        return Optional.of(aDuration(timerStepMs) && timerStepMs > 0 ? t.withClock(timerStepMs, Double.NaN) : t);
    }
}
