package dev.accelbridge.api;

import dev.accelbridge.browser.observe.Observed;
import dev.accelbridge.browser.observe.PageObserver;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.nativerunner.TinyOnnx;
import dev.accelbridge.observe.ObservedJudge;
import dev.accelbridge.observe.ObservedRows;
import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.run.NativeProviders;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What a hostile page can put in its report, as the records it is read into: an element type Accelbridge does not hold
 * (int16), shapes that cannot be ({@code [null, 4]}, {@code [-4]}), a hash that is not one, a hash that lies about the bytes,
 * 5000 rows of one input. Each becomes that session's row saying what it is, judged on the bytes read here or not at all,
 * and a store that holds the rows reads them back; nothing throws.
 */
class HostileReportTest {
    @TempDir
    static Path dir;
    static NativeProviders natives;
    static PageObserver.KeptModel model;

    @BeforeAll
    static void start() throws Exception {
        natives = NativeProviders.load();
        byte[] bytes = TinyOnnx.small().bytes();
        Path file = Files.write(dir.resolve("model.onnx"), bytes);
        model = new PageObserver.KeptModel(file, TinyOnnx.sha256(bytes), bytes.length, List.of());
    }

    @AfterAll
    static void stop() {
        natives.close();
    }

    private static Observed.Tensor tensor(String name, Integer type, List<Long> shape, int bytes) {
        return new Observed.Tensor(name, type, shape, (long) bytes, Base64.getEncoder().encodeToString(new byte[bytes]), false, null, false, null);
    }

    private static Observed.Session session(String sha, Observed.Tensor in, Observed.Tensor out) {
        Observed.Run run = new Observed.Run(1.0, 0, List.of(in), List.of(out), "run", null);
        return new Observed.Session(1, sha, model.size(), List.of(), List.of(), "jsep", 0.0, 1.0, true, false, 1, true, List.of(run),
                Map.of(), Map.of(), null, null, null, "1.30.0", List.of());
    }

    private static RunResult row(Observed.Session s, Optional<PageObserver.KeptModel> kept) {
        ObservedVerdict v = ObservedJudge.judge(s, ObservedJudge.Model.of(kept, () -> ObservedJudge.Model.letGo(s)), t -> t.tensor(), natives,
                Optional.empty());
        ObservedRows.Where w = new ObservedRows.Where("run-1", Instant.now(), URI.create("http://127.0.0.1:1/"), BrowserKind.CHROMIUM, "156.0",
                new HostInfo("h", "fp-h", "Linux", "amd64", "cpu", 2, 2, List.of(), 1L << 30, List.of(), "17"), null);
        return ObservedRows.of(w, new Observed.Realm(Observed.Realm.Kind.PAGE, "http://127.0.0.1:1/"), "open", v,
                ObservedJudge.precision(kept.map(PageObserver.KeptModel::file)), kept.map(PageObserver.KeptModel::sha256), List.of(), null);
    }

    @Test
    void judgingEndsAtTheVisitsDeadlineWhateverTheModel() throws Exception {
        // found when tried: a model whose native run never ends held observe --timeout 15 past 100 s, each native replay
        // given its five minutes
        Path endless = TinyOnnx.endlessLoop(Files.createDirectories(dir.resolve("endless")));
        byte[] bytes = Files.readAllBytes(endless);
        PageObserver.KeptModel kept = new PageObserver.KeptModel(endless, TinyOnnx.sha256(bytes), bytes.length, List.of());
        Observed.Tensor x = tensor("x", 1, List.of(1L), 4);
        Observed.Tensor y = tensor("y", 1, List.of(1L), 4);
        Observed.Run ran = new Observed.Run(0.5, 0, List.of(x), List.of(y), "run", null);
        Observed.Session s = new Observed.Session(1, kept.sha256(), bytes.length, List.of(), List.of(), "wasm", 0.0, 1.0, true, false, 1,
                true, List.of(ran), Map.of(), Map.of(), null, null, null, "1.30.0", List.of());
        long t0 = System.nanoTime();
        ObservedVerdict v = ObservedJudge.judge(s, new ObservedJudge.Model.Kept(kept), t -> t.tensor(), natives,
                Optional.of(Instant.now().plusSeconds(2)));
        assertThat(java.time.Duration.ofNanos(System.nanoTime() - t0)).isLessThan(java.time.Duration.ofSeconds(20));
        assertThat(v).isInstanceOfSatisfying(ObservedVerdict.NotJudged.class, n -> assertThat(n.reason())
                .isEqualTo("the visit's time (--timeout) ran out before native CPU had replayed its runs"));
    }

    @Test
    void aFigureNoClockGivesIsNone() {
        // found when tried: a page whose performance.now gave 1e300 once stored a load of -1e300 ms beside PASSED
        Observed.Tensor y = tensor("y", 1, List.of(2L, 2L), 16);
        Observed.Run ran = new Observed.Run(0.3, 0, List.of(tensor("x", 1, List.of(2L, 4L), 32)), List.of(y), "run", null);
        Observed.Run odd = new Observed.Run(1e300, 0, List.of(tensor("x", 1, List.of(2L, 4L), 32)), List.of(y), "run", null);
        Observed.Session s = new Observed.Session(1, model.sha256(), model.size(), List.of(), List.of(), "jsep", 0.0, -1e300, true, false, 2,
                true, List.of(ran, odd), Map.of(), Map.of(), null, null, null, "1.30.0", List.of());
        assertThat(ObservedRows.timings(s, 0.1).orElseThrow()).satisfies(t -> {
            assertThat(t.loadMs()).as("no load figure, never -1e300").isNaN();
            assertThat(t.samplesMs()).containsExactly(0.3);
        });
        // found when tried: observed figures kept no timer step, and a p50 of two 0.1 ms ticks graded a CPU's speed HIGH
        assertThat(ObservedRows.timings(s, 0.1).orElseThrow().quality().floored()).as("0.3 ms is within five 0.1 ms steps").isTrue();
        assertThat(ObservedRows.timings(s, 0.1).orElseThrow().quality().timerResolutionMs()).isEqualTo(0.1);
        assertThat(ObservedRows.timings(s, 0.005).orElseThrow().quality().floored()).as("a 5 µs clock times it").isFalse();
        assertThat(ObservedRows.timings(s, null).orElseThrow().quality().floored()).as("no step measured: nothing said").isFalse();
    }

    @Test
    void tensorsThatCannotBeAreRowsSayingSoNeverExceptions() {
        Observed.Tensor y = tensor("y", 1, List.of(2L, 2L), 16);
        for (Observed.Tensor x : List.of(tensor("x", 5, List.of(2L, 4L), 16), tensor("x", 1, Arrays.asList(null, 4L), 32),
                tensor("x", 1, List.of(-4L), 16), tensor("x", 1, List.of(2L, 4L), 5))) {
            assertThat(x.tensor()).as("%s", x).isEmpty();
            RunResult r = row(session(model.sha256(), x, y), Optional.of(model));
            assertThat(r.status()).isEqualTo(Status.UNAVAILABLE);
            assertThat(r.reason()).as("%s", x).contains("the page reported tensors Accelbridge cannot hold");
            assertThat(r.id().batchSize()).as("its leading dimension where the shape can be, else 1").isEqualTo(x.dims().isPresent() ? 2 : 1);
        }
    }

    @Test
    void aHashThatIsNotOneIsNoneAndAHashThatLiesIsNotTaken() {
        Observed.Tensor x = new Observed.Tensor("x", 1, List.of(2L, 4L), 32L, Base64.getEncoder().encodeToString(new byte[32]), false, null, false, null);
        assertThat(session("a", x, x).sha256()).as("one byte of digest").isNull();
        assertThat(session("<b>" + "0".repeat(61), x, x).sha256()).isNull();

        String forged = "11".repeat(32);
        RunResult r = row(session(forged, x, x), Optional.of(model));
        assertThat(r.id().modelSha256()).as("the sha256 of the bytes judged, computed here").isEqualTo(model.sha256());
        assertThat(r.id().model()).isEqualTo("app model " + model.sha256().substring(0, 12));
        assertThat(r.warnings()).anyMatch(w -> w.contains("the page's own hash of it (" + forged + ") is not the sha256"));

        RunResult unkept = row(session(forged, x, x), Optional.empty());
        assertThat(unkept.warnings()).contains("its sha256 is the page's own hash of it, not checked here (its bytes were not kept)");
    }

    @Test
    void fiveThousandRowsOfOneInputAreStoredAsRowsAStoreReadsBack() throws Exception {
        Observed.Tensor x = new Observed.Tensor("x", 1, List.of(5000L, 4L), 80000L, null, false, null, false, null);
        RunResult r = row(session(model.sha256(), x, x), Optional.of(model));
        assertThat(r.id().batchSize()).as("5000 rows of one input, not a batch").isEqualTo(1);
        assertThat(r.id().inputShapes()).isEqualTo("x=5000x4");
        try (MatrixStore store = MatrixStore.open(dir.resolve("m.duckdb"))) {
            String run = store.beginRun(new HostInfo("h", "fp-h", "Linux", "amd64", "cpu", 2, 2, List.of(), 1L << 30, List.of(), "17"),
                    Map.of(), "{}");
            RunResult stored = new RunResult(run, r.startedAt(), r.id(), r.outcome(), r.status(), r.reason(), r.provenance(), r.memory(), r.fallbackPath(), r.warnings(), r.variantParity(), r.analysis(), r.attempts(), r.sharedFigures());
            store.writeAll(List.of(stored));
            assertThat(store.results(run)).singleElement().satisfies(b -> assertThat(b.id().batchSize()).isEqualTo(1));
        }
    }
}
