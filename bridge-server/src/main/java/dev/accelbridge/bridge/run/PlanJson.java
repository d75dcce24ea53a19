package dev.accelbridge.bridge.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserSpec;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Precision;
import dev.accelbridge.fallback.Chains;
import dev.accelbridge.fallback.FallbackPolicy;
import dev.accelbridge.reports.store.ResultJson;
import dev.accelbridge.suites.FeedOptions;

import java.net.URI;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A run's plan as JSON, defined once: what the run ledger stores with every run ({@code plan}), what
 * {@code run --resume} reads back and what the dashboard hands to the run it launches ({@code run --plan FILE}).
 * Reading goes through {@link RunPlan#builder()}, so a stored plan is checked as a new one is. Every field is the
 * plan's own, typed; nothing is a command line.
 */
public final class PlanJson {
    /** The version of this form; a later one adds fields (a reader takes a missing field as the builder's default). */
    public static final int VERSION = 1;

    private PlanJson() {
    }

    /**
     * The plan's JSON form.
     *
     * @param version        {@link #VERSION}
     * @param suites         built-in suites
     * @param models         user model paths
     * @param family         the user models' family, or null
     * @param largeModels    realistic suite sizes
     * @param seed           the seed of generated weights and inputs
     * @param backends       requested backends
     * @param chains         each requested backend's chain, its hops in order
     * @param policy         when a result moves on to the next hop
     * @param browsers       browsers, each {@code NAME} or {@code NAME@MAJOR}
     * @param ortWeb         onnxruntime-web versions, or null for the pinned one (a plan stored before versions were dimensions)
     * @param ort            ONNX Runtime versions, or null for this process's own
     * @param driver         how browsers are launched
     * @param grid           the Selenium Grid, or null
     * @param headless       headless browsers
     * @param warmups        warm-up iterations
     * @param iterations     timed iterations (at least)
     * @param minDurationMs  the least time of a case's timed iterations; null in a plan stored before it existed (none)
     * @param warmupDurationMs the least time of a case's warm-ups; null in a plan stored before it existed (none)
     * @param caseTimeoutMs  the cap on one case
     * @param modelCache     where generated models go
     * @param feed           how user models are fed
     * @param loadTimeoutMs  the limit on session creation, or null
     * @param threads        intra-op threads, or null
     * @param precisions     precisions
     * @param batchSizes     batch sizes, or null for inputs as fed
     * @param drillDown      bisection, profiling and the leak check
     * @param shard          {@code I/N}, or null
     * @param bridgeHost     the address the bridge binds for launched browsers, or null
     * @param advertise      the URL launched browsers are given, or null
     * @param parallel       browser lanes at once
     * @param retries        re-runs of a FAILED case
     * @param maxResultBytes the cap on a browser case's undeclared outputs
     * @param noTls          an exposed bridge serves plain HTTP ({@code --no-tls}); null in an older plan (false)
     * @param tlsKeystore    the exposed bridge's keystore, or null for a certificate made at start
     * @param tlsPasswordFile the keystore's password file, or null
     * @param gridCapabilities what a Grid session asks its node to offer, or null
     * @param connect        a Playwright browser server, or null
     * @param connectExecutable the browser's path on that server, or null
     */
    public record Form(int version, List<String> suites, List<String> models, String family, boolean largeModels, long seed,
                       List<String> backends, Map<String, List<String>> chains, String policy, List<String> browsers,
                       List<String> ortWeb, List<String> ort, String driver, String grid, boolean headless, int warmups, int iterations, Long minDurationMs, Long warmupDurationMs, long caseTimeoutMs,
                       String modelCache, Feed feed, Long loadTimeoutMs, Integer threads, List<String> precisions,
                       List<Integer> batchSizes, DrillDown drillDown, String shard, String bridgeHost, String advertise,
                       int parallel, int retries, long maxResultBytes, Boolean noTls, String tlsKeystore, String tlsPasswordFile,
                       Map<String, String> gridCapabilities, String connect, String connectExecutable) {
    }

    /**
     * {@link FeedOptions} as JSON.
     *
     * @param dims      symbolic dimension values
     * @param shapes    concrete input shapes
     * @param inputs    given inputs (a scalar or a path)
     * @param rangeLo   generated inputs' low bound, or null
     * @param rangeHi   generated inputs' high bound, or null
     * @param tolerance the parity tolerance, or null
     * @param baseDir   where relative input paths resolve
     */
    public record Feed(Map<String, Long> dims, Map<String, long[]> shapes, Map<String, String> inputs, Double rangeLo,
                       Double rangeHi, Double tolerance, String baseDir) {
    }

    /** The plan's form. */
    public static Form form(RunPlan p) {
        Map<String, List<String>> chains = new LinkedHashMap<>();
        p.chains().forEach((b, c) -> chains.put(b.id(), c.hops().stream().map(BackendId::id).toList()));
        FeedOptions f = p.feed();
        return new Form(VERSION, p.suites().stream().map(ModelFamily::id).toList(),
                p.userModels().stream().map(Path::toString).toList(), p.userFamily().map(ModelFamily::id).orElse(null),
                p.largeModels(), p.seed(), p.backends().stream().map(BackendId::id).toList(), chains, p.policy().name(),
                p.browsers().stream().map(BrowserSpec::id).toList(), p.runtimes().ortWeb().isEmpty() ? null : p.runtimes().ortWeb(),
                p.runtimes().ort().isEmpty() ? null : p.runtimes().ort(), p.driver().id(), p.gridUrl().map(URI::toString).orElse(null),
                p.headless(), p.warmups(), p.iterations(), p.durations().timed().toMillis(), p.durations().warmup().toMillis(), p.caseTimeout().toMillis(), p.modelCache().toString(),
                new Feed(f.dims(), f.shapes(), f.inputs(), f.rangeLo(), f.rangeHi(), f.tolerance(), f.baseDir().toString()),
                p.loadTimeout().map(Duration::toMillis).orElse(null), p.threads().orElse(null),
                p.precisions().stream().map(Precision::id).toList(), p.batchSizes().isEmpty() ? null : p.batchSizes(),
                p.drillDown(), p.shard().map(Shard::toString).orElse(null), p.exposure().bindHost().orElse(null),
                p.exposure().advertise().map(URI::toString).orElse(null), p.scheduling().parallel(), p.scheduling().retries(),
                p.scheduling().maxResultBytes(), p.exposure().tls().plainHttp(), p.exposure().tls().keystore().map(Path::toString).orElse(null),
                p.exposure().tls().passwordFile().map(Path::toString).orElse(null),
                p.remote().gridCapabilities().isEmpty() ? null : p.remote().gridCapabilities(), p.remote().connect().map(URI::toString).orElse(null),
                p.remote().executable().orElse(null));
    }

    /** The plan as a JSON object. */
    public static ObjectNode write(RunPlan p) {
        return ResultJson.MAPPER.valueToTree(form(p));
    }

    /**
     * Reads a plan {@link #write} wrote, through the builder (so it is checked as a new plan is).
     *
     * @throws AccelbridgeException naming what is wrong when the JSON is not a plan or the plan cannot run
     */
    public static RunPlan read(JsonNode json) {
        Form f;
        try {
            f = ResultJson.MAPPER.treeToValue(json, Form.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException | IllegalArgumentException e) {
            throw new AccelbridgeException("The stored plan cannot be read: " + e.getMessage().lines().findFirst().orElse(""),
                    "give a plan written by Accelbridge (a run's plan in the store, or the dashboard's)", e);
        }
        if (f == null || f.backends() == null) {
            throw new AccelbridgeException("The stored plan names no backend", "give a plan written by Accelbridge");
        }
        Chains chains = Chains.defaults();
        if (f.chains() != null) {
            for (List<String> hops : f.chains().values()) {
                chains = chains.with(Chains.parse(String.join(",", hops)));
            }
        }
        RunPlan.Builder b = RunPlan.builder()
                .setBackends(f.backends().stream().map(BackendId::parse).toList())
                .optSuites(f.suites() == null ? null : f.suites().stream().map(ModelFamily::parse).toList())
                .optUserModels(f.models() == null ? List.of() : f.models().stream().map(Path::of).toList())
                .optUserFamily(f.family() == null ? null : ModelFamily.parse(f.family()))
                .optLargeModels(f.largeModels())
                .optSeed(f.seed())
                .optChains(chains)
                .optPolicy(f.policy() == null ? FallbackPolicy.ON_FAILURE : FallbackPolicy.valueOf(f.policy()))
                .optHeadless(f.headless())
                .optWarmups(f.warmups())
                .optIterations(f.iterations())
                .optMinDuration(Duration.ofMillis(f.minDurationMs() == null ? 0 : f.minDurationMs()))
                .optWarmupDuration(Duration.ofMillis(f.warmupDurationMs() == null ? 0 : f.warmupDurationMs()))
                .optThreads(f.threads())
                .optBatchSizes(f.batchSizes())
                .optShard(f.shard() == null ? null : Shard.parse(f.shard()))
                .optExposure(Exposure.of(f.bridgeHost(), f.advertise() == null ? null : URI.create(f.advertise())).withTls(new Exposure.Tls(
                        Boolean.TRUE.equals(f.noTls()), Optional.ofNullable(f.tlsKeystore()).map(Path::of),
                        Optional.ofNullable(f.tlsPasswordFile()).map(Path::of))))
                .optRemote(new RemoteBrowsers(f.gridCapabilities(), Optional.ofNullable(f.connect()).map(URI::create),
                        Optional.ofNullable(f.connectExecutable())))
                .optParallel(f.parallel() < 1 ? 1 : f.parallel())
                .optRetries(f.retries());
        if (f.browsers() != null) {
            b.optBrowserSpecs(f.browsers().stream().map(BrowserSpec::parse).toList());
        }
        b.optRuntimes(new Runtimes(f.ortWeb(), f.ort()));
        if (f.driver() != null) {
            b.optDriver(DriverKind.parse(f.driver()));
        }
        if (f.grid() != null) {
            b.optGrid(URI.create(f.grid()));
        }
        if (f.caseTimeoutMs() > 0) {
            b.optCaseTimeout(Duration.ofMillis(f.caseTimeoutMs()));
        }
        if (f.modelCache() != null) {
            b.optModelCache(Path.of(f.modelCache()));
        }
        if (f.loadTimeoutMs() != null) {
            b.optLoadTimeout(Duration.ofMillis(f.loadTimeoutMs()));
        }
        if (f.precisions() != null) {
            b.optPrecisions(f.precisions().stream().map(Precision::parse).toList());
        }
        if (f.maxResultBytes() > 0) {
            b.optMaxResultBytes(f.maxResultBytes());
        }
        if (f.drillDown() != null) {
            DrillDown d = f.drillDown();
            b.optDrillDown(d.bisect(), d.profileIterations(), d.recreate());
            if (d.bisectAlways()) {
                b.optBisectAlways();
            }
        }
        Feed feed = f.feed();
        if (feed != null) {
            b.optFeed(new FeedOptions(orEmpty(feed.dims()), orEmpty(feed.shapes()), orEmpty(feed.inputs()), feed.rangeLo(),
                    feed.rangeHi(), feed.tolerance(), Path.of(feed.baseDir() == null ? "." : feed.baseDir())));
        }
        return b.build();
    }

    /**
     * What a run records in the ledger: how it was started ({@code origin}: {@code cli}, {@code java-api}, {@code junit5},
     * ...), its label, and its {@code plan}.
     */
    public static String record(RunPlan plan, String origin, String label) {
        ObjectNode o = ResultJson.MAPPER.createObjectNode();
        o.put("origin", origin);
        if (label != null) {
            o.put("label", label);
        }
        o.set("plan", write(plan));
        return o.toString();
    }

    /**
     * The plan a run recorded ({@link #record}); empty for a run recorded before plans were stored as data (its
     * {@code args} were a command line).
     *
     * @throws AccelbridgeException when the recorded plan is there but cannot be read back
     */
    public static java.util.Optional<RunPlan> stored(String recorded) {
        JsonNode n;
        try {
            n = recorded == null ? null : ResultJson.MAPPER.readTree(recorded);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            return java.util.Optional.empty();
        }
        JsonNode plan = n == null ? null : n.get("plan");
        return plan == null || !plan.isObject() ? java.util.Optional.empty() : java.util.Optional.of(read(plan));
    }

    private static <K, V> Map<K, V> orEmpty(Map<K, V> m) {
        return m == null ? Map.of() : m;
    }
}
