package dev.accelbridge.run;

import dev.accelbridge.browser.testing.RequiresBrowser;
import com.fasterxml.jackson.databind.JsonNode;
import dev.accelbridge.browser.provider.BrowserBackendProvider;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.nativerunner.HostDetector;
import dev.accelbridge.reports.render.JUnitXmlRenderer;
import dev.accelbridge.reports.store.MatrixStore;
import dev.accelbridge.reports.store.ResultJson;
import dev.accelbridge.suites.SuiteCatalog;
import dev.accelbridge.suites.SuiteOptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicBoolean;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code --retries} and {@code --parallel} through the real orchestrator, real Chromium and real onnxruntime-web: a
 * browser killed during its first case's first attempt yields a flaky PASSED after one retry (never a plain PASSED), and
 * two lanes run their browsers' cases at the same time, each case written once.
 */
@RequiresBrowser
class ParallelAndRetryTest {
    @TempDir
    static Path dir;
    static HostInfo host;
    static List<ModelCase> cases;

    @BeforeAll
    static void setUp() {
        host = HostDetector.detect();
        SuiteCatalog catalog = SuiteCatalog.create(SuiteOptions.defaults(dir.resolve("models")));
        cases = new ArrayList<>();
        for (ModelFamily f : List.of(ModelFamily.TEXT, ModelFamily.VISION, ModelFamily.AUDIO)) {
            catalog.cases(f).stream().filter(c -> c.scenario() instanceof dev.accelbridge.core.Scenario.SinglePass).forEach(cases::add); // single passes (not speech-to-text)
        }
    }

    @Test
    void aBrowserKilledOnceGivesAFlakyPassAfterOneRetry() throws Exception {
        RunPlan plan = RunPlan.builder().workload(w -> w.optSuites(List.of(ModelFamily.TEXT)).optModelCache(dir.resolve("models"))).targets(t -> t.setBackends(List.of(BackendId.WASM))).sampling(s -> s.optWarmups(0).optIterations(2).optMinDuration(java.time.Duration.ZERO).optWarmupDuration(java.time.Duration.ZERO)).limits(l -> l.optRetries(1)).build();
        AtomicBoolean killed = new AtomicBoolean();
        List<ModelCase> text = cases.subList(0, 1);
        try (MatrixStore store = MatrixStore.openForRun(dir.resolve("retry.duckdb")); NativeProviders natives = NativeProviders.load()) {
            Recording lanes = new Recording(plan, (p, request) -> {
                if (killed.compareAndSet(false, true)) {
                    // kill the browser as soon as the page has the case's first job (its session creation)
                    Thread killer = new Thread(() -> {
                        long until = System.nanoTime() + 30_000_000_000L;
                        while (p.page().pendingJobs() == 0 && System.nanoTime() < until) {
                            Thread.onSpinWait();
                        }
                        p.handle().orElseThrow().kill();
                    });
                    killer.start();
                }
            });
            RunSummary s = new RunOrchestrator(store, host, natives, () -> lanes, Map.of("accelbridge", "test"), RunListener.NONE)
                    .run(plan, text, "{}", null);
            RunResult wasm = s.results().stream().filter(r -> r.requested() == BackendId.WASM).findFirst().orElseThrow();
            assertThat(killed).isTrue();
            assertThat(wasm.status()).as(wasm.reason()).isEqualTo(Status.PASSED);
            assertThat(wasm.flaky()).isTrue();
            assertThat(wasm.attempts().count()).isEqualTo(2);
            assertThat(wasm.attempts().earlier()).singleElement().asString()
                    .startsWith("attempt 1 FAILED: ").contains("Browser crashed or page left");
            assertThat(wasm.diagnostics()).anySatisfy(d -> assertThat(d.code()).isEqualTo("flaky"));
            // the one JSON form, the store and the JUnit report all say so
            JsonNode json = ResultJson.result(wasm, false);
            assertThat(json.get("flaky").asBoolean()).isTrue();
            assertThat(json.get("attempts").asInt()).isEqualTo(2);
            RunResult stored = store.results(s.runId()).stream().filter(r -> r.requested() == BackendId.WASM).findFirst().orElseThrow();
            assertThat(stored.flaky()).isTrue();
            assertThat(stored.attempts()).isEqualTo(wasm.attempts());
            String junit = JUnitXmlRenderer.render(dev.accelbridge.reports.render.MatrixBuilder.build(store,
                    java.util.Optional.of(s.runId()), dev.accelbridge.reports.history.RegressionDetector.defaults()));
            assertThat(junit).contains("<flakyFailure message=\"attempt 1 FAILED: ");
        }
    }

    @Test
    void aLaneThatWouldNotStartStartsAgainWithRetries() throws Exception {
        // as a browser on a busy machine that did not reach the bridge in time: its lane's open fails once
        RunPlan plan = RunPlan.builder().workload(w -> w.optSuites(List.of(ModelFamily.TEXT)).optModelCache(dir.resolve("models"))).targets(t -> t.setBackends(List.of(BackendId.WASM))).sampling(s -> s.optWarmups(0).optIterations(1).optMinDuration(java.time.Duration.ZERO).optWarmupDuration(java.time.Duration.ZERO)).limits(l -> l.optRetries(1)).build();
        List<String> said = new CopyOnWriteArrayList<>();
        RunListener listener = new RunListener() {
            @Override
            public void info(String message) {
                said.add(message);
            }
        };
        try (MatrixStore store = MatrixStore.openForRun(dir.resolve("reopen.duckdb")); NativeProviders natives = NativeProviders.load()) {
            Recording lanes = new Recording(plan, (p, request) -> { });
            lanes.failingOpens = 1;
            RunSummary s = new RunOrchestrator(store, host, natives, () -> lanes, Map.of("accelbridge", "test"), listener)
                    .run(plan, cases.subList(0, 1), "{}", null);
            RunResult wasm = s.results().stream().filter(r -> r.requested() == BackendId.WASM).findFirst().orElseThrow();
            assertThat(wasm.status()).as(wasm.reason()).isEqualTo(Status.PASSED);
            assertThat(said).anySatisfy(m -> assertThat(m).contains("did not start (No page joined").contains("starting it again (attempt 2 of 2)"));
        }
        // without retries the lane's cases say why it did not start, and the run goes on
        RunPlan once = RunPlan.builder().workload(w -> w.optSuites(List.of(ModelFamily.TEXT)).optModelCache(dir.resolve("models"))).targets(t -> t.setBackends(List.of(BackendId.WASM))).sampling(s -> s.optWarmups(0).optIterations(1).optMinDuration(java.time.Duration.ZERO).optWarmupDuration(java.time.Duration.ZERO)).build();
        try (MatrixStore store = MatrixStore.openForRun(dir.resolve("noreopen.duckdb")); NativeProviders natives = NativeProviders.load()) {
            Recording lanes = new Recording(once, (p, request) -> { });
            lanes.failingOpens = 1;
            RunSummary s = new RunOrchestrator(store, host, natives, () -> lanes, Map.of("accelbridge", "test"), RunListener.NONE)
                    .run(once, cases.subList(0, 1), "{}", null);
            RunResult wasm = s.results().stream().filter(r -> r.requested() == BackendId.WASM).findFirst().orElseThrow();
            assertThat(wasm.status()).isEqualTo(Status.FAILED);
            assertThat(wasm.reason()).contains("No page joined");
            assertThat(lanes.opened).isEmpty();
        }
    }

    @Test
    void aRemoteLaneWhosePageDidNotJoinStartsAgainWithRetriesAndOneThatGaveNoBrowserDoesNot() throws Exception {
        RunPlan plan = RunPlan.builder().workload(w -> w.optSuites(List.of(ModelFamily.TEXT)).optModelCache(dir.resolve("models"))).targets(t -> t.setBackends(List.of(BackendId.WASM))).sampling(s -> s.optWarmups(0).optIterations(1).optMinDuration(java.time.Duration.ZERO).optWarmupDuration(java.time.Duration.ZERO)).limits(l -> l.optRetries(1)).build();
        HostInfo server = RemoteUnavailable.playwrightServer(java.net.URI.create("ws://10.213.9.2:3000/"));
        // found when tried: a Playwright server's browser lost its page's requests to a change of the server's network,
        // and the lane's cases were stored UNAVAILABLE there though --retries 1 was asked for
        for (boolean browserHad : List.of(true, false)) {
            List<String> said = new CopyOnWriteArrayList<>();
            RunListener listener = new RunListener() {
                @Override
                public void info(String message) {
                    said.add(message);
                }
            };
            try (MatrixStore store = MatrixStore.openForRun(dir.resolve("remote-" + browserHad + ".duckdb")); NativeProviders natives = NativeProviders.load()) {
                Recording lanes = new Recording(plan, (p, request) -> { });
                lanes.failingOpens = 1;
                lanes.openFailure = () -> new RemoteUnavailable(server, "No page joined for launch slot 0 within 60 s (injected)",
                        "check the browser starts and reaches the bridge", browserHad);
                RunSummary s = new RunOrchestrator(store, host, natives, () -> lanes, Map.of("accelbridge", "test"), listener)
                        .run(plan, cases.subList(0, 1), "{}", null);
                RunResult wasm = s.results().stream().filter(r -> r.requested() == BackendId.WASM).findFirst().orElseThrow();
                if (browserHad) {
                    assertThat(wasm.status()).as(wasm.reason()).isEqualTo(Status.PASSED);
                    assertThat(said).anySatisfy(m -> assertThat(m).contains("did not start (No page joined").contains("starting it again (attempt 2 of 2)"));
                } else { // a remote that gave no browser: its cases are UNAVAILABLE there, not tried again
                    assertThat(wasm.status()).isEqualTo(Status.UNAVAILABLE);
                    assertThat(wasm.hostFingerprint()).isEqualTo(server.fingerprint());
                    assertThat(lanes.opened).isEmpty();
                    assertThat(said).noneSatisfy(m -> assertThat(m).contains("starting it again"));
                }
            }
        }
    }

    @Test
    void twoLanesRunTheirCasesAtTheSameTimeEachCaseWrittenOnce() throws Exception {
        RunPlan plan = RunPlan.builder().workload(w -> w.optSuites(List.of(ModelFamily.TEXT, ModelFamily.VISION, ModelFamily.AUDIO)).optBatchSizes(List.of(1, 2)).optModelCache(dir.resolve("models"))).targets(t -> t.setBackends(List.of(BackendId.WASM)).optParallel(2)).sampling(s -> s.optWarmups(1).optIterations(3).optMinDuration(java.time.Duration.ZERO).optWarmupDuration(java.time.Duration.ZERO)).build();
        List<long[]> spans = new CopyOnWriteArrayList<>();
        Map<Long, BrowserBackendProvider> byThread = new ConcurrentHashMap<>();
        List<ModelCase> batched = new ArrayList<>();
        for (ModelCase mc : cases) {
            for (int b : List.of(1, 2)) {
                dev.accelbridge.suites.Batching.atBatch(mc, b).ifPresent(batched::add);
            }
        }
        try (MatrixStore store = MatrixStore.openForRun(dir.resolve("parallel.duckdb")); NativeProviders natives = NativeProviders.load()) {
            Recording lanes = new Recording(plan, (p, request) -> byThread.put(Thread.currentThread().getId(), p));
            lanes.spans = spans;
            RunSummary s = new RunOrchestrator(store, host, natives, () -> lanes, Map.of("accelbridge", "test"), RunListener.NONE)
                    .run(plan, batched, "{}", null);
            List<RunResult> browser = s.results().stream().filter(r -> r.requested() == BackendId.WASM).toList();
            assertThat(browser).hasSize(batched.size()).allSatisfy(r -> assertThat(r.status()).as(r.reason()).isEqualTo(Status.PASSED));
            assertThat(browser).extracting(RunResult::id).doesNotHaveDuplicates();
            assertThat(store.results(s.runId())).hasSize(s.results().size());
            assertThat(lanes.opened).as("one browser per lane").hasSize(2);
            assertThat(Set.copyOf(byThread.values())).as("both lanes ran cases").hasSize(2);
            // two cases from different lanes overlapped in time
            boolean overlap = false;
            for (long[] a : spans) {
                for (long[] b : spans) {
                    overlap |= a[2] != b[2] && a[0] < b[1] && b[0] < a[1];
                }
            }
            assertThat(overlap).as("cases of the two lanes ran at the same time").isTrue();
            // each lane's threads are its share of the cores, on both sides
            assertThat(browser).allSatisfy(r -> assertThat(r.provenance().threads()).isEqualTo(plan.effectiveThreads()));
        }
    }

    /** Real lanes whose providers call {@code before} ahead of each execution and record when it ran. */
    private static final class Recording implements BrowserLanes {
        private final BridgeBrowserLanes real;
        private final java.util.function.BiConsumer<BrowserBackendProvider, ExecutionRequest> before;
        final List<BrowserBackendProvider> opened = new CopyOnWriteArrayList<>();
        List<long[]> spans = new CopyOnWriteArrayList<>();
        /** How many opens fail before the real ones, as a lane that would not start. */
        volatile int failingOpens;
        /** What a failing open throws: a browser here whose page did not join, unless a test says otherwise. */
        java.util.function.Supplier<dev.accelbridge.core.AccelbridgeException> openFailure = () -> new dev.accelbridge.core.AccelbridgeException(
                "No page joined for launch slot 0 within 60 s (injected)", "raise the join timeout");

        Recording(RunPlan plan, java.util.function.BiConsumer<BrowserBackendProvider, ExecutionRequest> before) {
            this.real = new BridgeBrowserLanes(plan, Map.of("accelbridge", "test"));
            this.before = before;
        }

        @Override
        public Lane open(LaneId browser, Collection<BackendId> backends) {
            if (failingOpens-- > 0) {
                throw openFailure.get();
            }
            Lane lane = real.open(browser, backends);
            BrowserBackendProvider p = (BrowserBackendProvider) lane.providers().apply(BackendId.WASM);
            opened.add(p);
            long laneNo = opened.size();
            BackendProvider wrapped = new BackendProvider() {
                @Override public String name() { return p.name(); }
                @Override public Set<BackendId> backends() { return p.backends(); }
                @Override public int priority() { return p.priority(); }
                @Override public Availability probe(BackendId b) { return p.probe(b); }
                @Override public void close() { p.close(); }

                @Override
                public Execution execute(ExecutionRequest request) {
                    before.accept(p, request);
                    long t0 = System.nanoTime();
                    try {
                        return p.execute(request);
                    } finally {
                        spans.add(new long[] {t0, System.nanoTime(), laneNo});
                    }
                }
            };
            return lane.withProviders(b -> wrapped);
        }

        @Override
        public void close() {
            real.close();
        }

        @Override
        public String driver(dev.accelbridge.core.LaneId target) {
            return real.driver(target);
        }
    }
}
