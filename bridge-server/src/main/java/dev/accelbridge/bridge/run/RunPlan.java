package dev.accelbridge.bridge.run;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.BrowserSpec;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.MinDurations;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.fallback.Chain;
import dev.accelbridge.fallback.Chains;
import dev.accelbridge.fallback.FallbackPolicy;
import dev.accelbridge.suites.FeedOptions;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What one run does: which models (suites and user folders), which backends along which chains, in which
 * browsers, and how many iterations.
 *
 * @param suites        the built-in suites to run (may be empty when only user models are given)
 * @param userModels    user model folders or files ({@code --model})
 * @param userFamily    the family of the user models when given ({@code --family}); inferred otherwise
 * @param largeModels   realistic model sizes instead of the small defaults
 * @param seed          the seed of the generated models' weights and inputs
 * @param backends      the requested backends
 * @param chains        the fallback chain of every requested backend
 * @param policy        when a run-time result moves on to the next hop
 * @param browsers      the browsers that run the browser backends, each at a major version or the one installed
 * @param runtimes      the onnxruntime-web and ONNX Runtime releases every case runs under ({@code --ort-web}, {@code --ort})
 * @param driver        how browsers are launched
 * @param gridUrl       a Selenium Grid for {@link DriverKind#GRID}
 * @param headless      headless browsers (the default)
 * @param warmups       warm-up iterations per case
 * @param iterations    timed iterations per case (at least)
 * @param durations     the least time a case's warm-ups and timed iterations take ({@code --warmup-duration},
 *                      {@code --min-duration})
 * @param caseTimeout   the cap on one case ({@code --timeout}); within it session creation, the first inference and the
 *                      timed runs have their own limits ({@link dev.accelbridge.core.TimeBudget})
 * @param modelCache    where generated models are written
 * @param feed          how user models are fed: {@code --dim}, {@code --shape}, {@code --input}, {@code --input-range},
 *                      {@code --tolerance} (a model folder's {@code accelbridge.json} under them)
 * @param loadTimeout   limit for session creation alone ({@code --load-timeout}); empty: 30 s + 1 s per 10 MB of model
 * @param threads       intra-op threads for both sides (ORT natively, {@code env.wasm.numThreads} in the page), so a
 *                      browser-vs-native ratio compares like with like; empty: the cores a browser may use
 * @param precisions    the precisions every model runs at ({@code --precision}; fp16 and int8 variants are derived from
 *                      fp32 models, a model shipped at another precision runs at its own only)
 * @param batchSizes    the batch sizes every model runs at ({@code --batch-sizes}; a model with a fixed batch runs at its
 *                      own only); empty: every input fed exactly as shipped or given (and judged against the expected
 *                      outputs shipped with it), the suites' generated pools at batch 1
 * @param drillDown     bisection of wrong outputs ({@code --no-bisect} turns it off), per-op profiles ({@code --profile})
 *                      and the re-creation leak check ({@code --recreate N})
 * @param shard         the part of the models this run takes ({@code --shard I/N}); empty: all
 * @param exposure      where launched browsers reach the bridge ({@code --bridge-host}, {@code --advertise}) and its TLS
 * @param scheduling    browser lanes at once ({@code --parallel}) and re-runs of a FAILED case ({@code --retries})
 * @param remote        Grid capabilities to route by and a Playwright browser server ({@code --grid-capability}, {@code --connect})
 */
@PublicApi
public record RunPlan(List<ModelFamily> suites, List<Path> userModels, Optional<ModelFamily> userFamily,
                      boolean largeModels, long seed, List<BackendId> backends, Map<BackendId, Chain> chains,
                      FallbackPolicy policy, List<BrowserSpec> browsers, Runtimes runtimes, DriverKind driver, Optional<URI> gridUrl,
                      boolean headless, int warmups, int iterations, MinDurations durations, Duration caseTimeout, Path modelCache,
                      FeedOptions feed, Optional<Duration> loadTimeout, Optional<Integer> threads,
                      List<Precision> precisions, List<Integer> batchSizes, DrillDown drillDown, Optional<Shard> shard,
                      Exposure exposure, Scheduling scheduling, RemoteBrowsers remote) {

    public RunPlan {
        drillDown = drillDown == null ? DrillDown.DEFAULT : drillDown;
        shard = shard == null ? Optional.empty() : shard;
        exposure = exposure == null ? Exposure.LOOPBACK : exposure;
        scheduling = scheduling == null ? Scheduling.SERIAL : scheduling;
        precisions = List.copyOf(precisions);
        batchSizes = List.copyOf(batchSizes);
        suites = List.copyOf(suites);
        userModels = List.copyOf(userModels);
        backends = List.copyOf(backends);
        chains = Map.copyOf(chains);
        browsers = List.copyOf(browsers);
        runtimes = runtimes == null ? Runtimes.PINNED : runtimes;
        remote = remote == null ? RemoteBrowsers.NONE : remote;
    }

    /** A builder, in the manner of DJL's {@code Criteria}: required {@code set*}, optional {@code opt*}. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The intra-op thread count both sides use: the plan's, else this host's cores shared among the parallel browser
     * lanes (so N lanes do not each take every core, and native runs with what one lane gets).
     */
    public int effectiveThreads() {
        return threads.orElseGet(() -> Math.max(1, Runtime.getRuntime().availableProcessors() / scheduling.parallel()));
    }

    /**
     * Builds a {@link RunPlan}; {@link #build()} refuses a plan that cannot run, naming the option and the fix. The
     * CLI ({@code run}, {@code serve}, {@code --resume}), the Java API and tests all build plans here.
     */
    public static final class Builder {
        private List<BackendId> backends;
        private List<ModelFamily> suites;
        private List<Path> userModels = List.of();
        private ModelFamily userFamily;
        private boolean largeModels;
        private long seed = dev.accelbridge.suites.SuiteOptions.DEFAULT_SEED;
        private Chains chains = Chains.defaults();
        private FallbackPolicy policy = FallbackPolicy.ON_FAILURE;
        private List<BrowserSpec> browsers = List.of(BrowserSpec.of(BrowserKind.CHROMIUM));
        private Runtimes runtimes = Runtimes.PINNED;
        private DriverKind driver = DriverKind.PLAYWRIGHT;
        private URI grid;
        private Exposure exposure = Exposure.LOOPBACK;
        private RemoteBrowsers remote = RemoteBrowsers.NONE;
        private int parallel = 1;
        private int retries;
        private long maxResultBytes = dev.accelbridge.browser.bridge.OutputBudget.DEFAULT_CAP;
        private boolean headless = true;
        private Integer warmups; // null: PlanDefaults.sampling decides, by the suites
        private Integer iterations;
        private Duration minDuration;
        private Duration warmupDuration;
        private Duration caseTimeout = dev.accelbridge.core.TimeBudget.CASE_CAP;
        private Path modelCache = PlanDefaults.modelCache();
        private Integer threads;
        private FeedOptions feed = FeedOptions.none();
        private Duration loadTimeout;
        private DrillDown drillDown = DrillDown.DEFAULT;
        private Shard shard;
        private List<Precision> precisions = List.of(Precision.FP32);
        private List<Integer> batchSizes = List.of();
        private boolean batchSizesGiven;

        private Builder() {
        }

        /** Required: the backends to request (at least one). */
        public Builder setBackends(List<BackendId> b) {
            this.backends = b;
            return this;
        }

        /** The built-in suites (default: text, vision, audio unless user models are given). */
        public Builder optSuites(List<ModelFamily> s) {
            this.suites = s;
            return this;
        }

        /** User model folders or files ({@code --model}). */
        public Builder optUserModels(List<Path> m) {
            this.userModels = m == null ? List.of() : m;
            return this;
        }

        /** The family of the user models ({@code --family}); inferred when absent. */
        public Builder optUserFamily(ModelFamily f) {
            this.userFamily = f;
            return this;
        }

        /** Realistic suite model sizes. */
        public Builder optLargeModels(boolean large) {
            this.largeModels = large;
            return this;
        }

        /** The seed of generated weights and inputs. */
        public Builder optSeed(long s) {
            this.seed = s;
            return this;
        }

        /** The fallback chains (default {@link Chains#defaults()}). */
        public Builder optChains(Chains c) {
            this.chains = c;
            return this;
        }

        /** When a run-time result moves on to the next hop. */
        public Builder optPolicy(FallbackPolicy p) {
            this.policy = p;
            return this;
        }

        /** The browsers for the browser backends, at the version installed (default: chromium). */
        public Builder optBrowsers(List<BrowserKind> b) {
            return optBrowserSpecs(b == null ? null : b.stream().map(BrowserSpec::of).toList());
        }

        /** The browsers for the browser backends, each at a major version or the one installed ({@code chromium-shell@141}). */
        public Builder optBrowserSpecs(List<BrowserSpec> b) {
            this.browsers = b;
            return this;
        }

        /** The onnxruntime-web and ONNX Runtime releases to run under (default: the pinned ones). */
        public Builder optRuntimes(Runtimes r) {
            this.runtimes = r;
            return this;
        }

        /** How browsers are launched (default: playwright). */
        public Builder optDriver(DriverKind d) {
            this.driver = d;
            return this;
        }

        /** A Selenium Grid; implies the grid driver. */
        public Builder optGrid(URI url) {
            this.grid = url;
            return this;
        }

        /** Where launched browsers reach the bridge, and its TLS ({@link Exposure#of}; default loopback). */
        public Builder optExposure(Exposure e) {
            this.exposure = e == null ? Exposure.LOOPBACK : e;
            return this;
        }

        /** Grid capabilities to route by, and a Playwright browser server to run lanes on. */
        public Builder optRemote(RemoteBrowsers r) {
            this.remote = r == null ? RemoteBrowsers.NONE : r;
            return this;
        }

        /** Browser lanes at once (default 1). */
        public Builder optParallel(int n) {
            this.parallel = n;
            return this;
        }

        /** Re-runs of a FAILED case (default 0). */
        public Builder optRetries(int n) {
            this.retries = n;
            return this;
        }

        /** The most bytes a browser case's undeclared outputs may total ({@code --max-result-mb}; default 2 GiB). */
        public Builder optMaxResultBytes(long n) {
            this.maxResultBytes = n;
            return this;
        }

        /** Headless browsers (default true). */
        public Builder optHeadless(boolean h) {
            this.headless = h;
            return this;
        }

        /** Warm-up iterations per case (default 3; 0 for the op suite alone; at least 0). */
        public Builder optWarmups(int n) {
            this.warmups = n;
            return this;
        }

        /** Timed iterations per case (default 10; 1 for the op suite alone; at least 1). */
        public Builder optIterations(int n) {
            this.iterations = n;
            return this;
        }

        /** The least time a case's timed iterations take together (default {@link PlanDefaults#MIN_DURATION}; zero: none). */
        public Builder optMinDuration(Duration d) {
            this.minDuration = d;
            return this;
        }

        /** The least time a case's warm-ups take together (default {@link PlanDefaults#WARMUP_DURATION}; zero: none). */
        public Builder optWarmupDuration(Duration d) {
            this.warmupDuration = d;
            return this;
        }

        /** Limit for one case on one hop (default 180 s, positive). */
        public Builder optCaseTimeout(Duration d) {
            this.caseTimeout = d;
            return this;
        }

        /** Where generated models are written. */
        public Builder optModelCache(Path p) {
            this.modelCache = p;
            return this;
        }

        /** Runs only this part of the models ({@code --shard I/N}). */
        public Builder optShard(Shard s) {
            this.shard = s;
            return this;
        }

        /**
         * Bisection of wrong outputs (default on), per-op profiles of {@code profileIterations} iterations (default 0: none)
         * and {@code recreate} leak-check cycles (default 0: none).
         */
        public Builder optDrillDown(boolean bisect, int profileIterations, int recreate) {
            this.drillDown = new DrillDown(bisect, false, profileIterations, recreate);
            return this;
        }

        /** Bisect every case, whatever its status (what {@code accelbridge bisect} asks for). */
        public Builder optBisectAlways() {
            this.drillDown = new DrillDown(true, true, drillDown.profileIterations(), drillDown.recreate());
            return this;
        }

        /** Limit for session creation alone (default: 30 s + 1 s per 10 MB of model, at most the case timeout). */
        public Builder optLoadTimeout(Duration d) {
            this.loadTimeout = d;
            return this;
        }

        /** How user models are fed (default: nothing given, every default applies). */
        public Builder optFeed(FeedOptions f) {
            this.feed = f == null ? FeedOptions.none() : f;
            return this;
        }

        /** The precisions to run at (default fp32). */
        public Builder optPrecisions(List<Precision> p) {
            this.precisions = p;
            return this;
        }

        /**
         * The batch sizes to run at; null or never called: inputs as fed (shipped data as shipped, the suites at batch 1).
         */
        public Builder optBatchSizes(List<Integer> b) {
            this.batchSizes = b == null ? List.of() : b;
            this.batchSizesGiven = b != null;
            return this;
        }

        /** Intra-op threads for both sides (default: the cores a browser may use). */
        public Builder optThreads(Integer n) {
            this.threads = n;
            return this;
        }

        /**
         * The plan.
         *
         * @throws AccelbridgeException naming the option that makes the plan impossible and the fix
         */
        public RunPlan build() {
            PlanChecks.options(backends, caseTimeout, threads, precisions, batchSizesGiven, batchSizes);
            List<ModelFamily> s = suites != null ? suites : userModels.isEmpty()
                    ? List.of(ModelFamily.TEXT, ModelFamily.VISION, ModelFamily.AUDIO) : List.of();
            PlanDefaults.Sampled sampled = PlanDefaults.sampling(PlanDefaults.conformance(s, userModels), warmups, iterations, warmupDuration, minDuration);
            PlanChecks.work(s, userModels, backends, browsers);
            PlanChecks.remote(grid, driver, remote);
            Map<BackendId, Chain> chainMap = new LinkedHashMap<>();
            for (BackendId b : backends) {
                chainMap.put(b, chains.forBackend(b));
            }
            Scheduling scheduling = new Scheduling(parallel, retries, maxResultBytes);
            DriverKind d = grid != null ? DriverKind.GRID : driver;
            return new RunPlan(s.stream().distinct().toList(), userModels, Optional.ofNullable(userFamily), largeModels, seed,
                    backends.stream().distinct().toList(), chainMap, policy, browsers.stream().distinct().toList(), runtimes, d,
                    Optional.ofNullable(grid), headless, sampled.warmups(), sampled.iterations(), sampled.durations(), caseTimeout, modelCache, feed, Optional.ofNullable(loadTimeout), Optional.ofNullable(threads),
                    precisions.stream().distinct().toList(), batchSizes.stream().distinct().toList(), drillDown,
                    Optional.ofNullable(shard), exposure, scheduling, remote);
        }
    }

    /** The browser lanes: each browser with each onnxruntime-web version. */
    public List<dev.accelbridge.core.LaneId> browserLanes() {
        return runtimes.browserLanes(browsers, dev.accelbridge.browser.page.PageAssets.ortWebVersion());
    }

    /** The requested browser backends. */
    public List<BackendId> browserBackends() {
        return backends.stream().filter(BackendId::isBrowser).toList();
    }

    /** The requested native backends. */
    public List<BackendId> nativeBackends() {
        return backends.stream().filter(b -> !b.isBrowser()).toList();
    }

    /** The chain of a requested backend. */
    public Chain chainOf(BackendId requested) {
        Chain c = chains.get(requested);
        return c != null ? c : Chain.of(requested);
    }
}
