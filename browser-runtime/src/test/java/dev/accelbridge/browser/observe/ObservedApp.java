package dev.accelbridge.browser.observe;

import dev.accelbridge.bridge.ServedPage;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.nativerunner.TinyOnnx;
import io.javalin.Javalin;
import io.javalin.http.staticfiles.Location;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/**
 * A user's app on a server of its own (a real Javalin on port 0), not Accelbridge's page: it imports onnxruntime-web
 * itself (the pinned release's {@code ort.all.min.mjs}), makes a session from its model file when it loads, and runs it
 * when its button is clicked ({@code #run}), marking the body {@code data-done} with the output names; {@code ?ep=webgpu}
 * asks for WebGPU instead of wasm. {@code /empty} is a page without a model, {@code /many} one that makes 100 sessions,
 * {@code /bundled} the same app from a bundle the test puts at {@code /files/bundle.js}; {@code /tjs} a semantic-search
 * app on transformers.js ({@link #TRANSFORMERS}) whose files the test serves ({@link #serve}); {@code /leave} the first app
 * with a second button ({@code #leave}) that starts runs without end and navigates away in the middle of them;
 * {@code /busy} a page whose script never yields; {@code /odd}, {@code /clicker} and {@code /downloader} (below); {@code /huge} the first app feeding its session 1 GiB ({@code [2^26, 4]}
 * float32) when its button is clicked; {@code /proxy} the first app with onnxruntime-web's proxy mode on (its session in
 * onnxruntime-web's own worker); {@link ThreadedApp}'s pages the same app with its session in a worker or a frame.
 */
public final class ObservedApp implements AutoCloseable {
    /**
     * The idle a visit of these pages waits after each step where the page marks its end ({@code data-done}, the visit's
     * {@code until}): the mark says the app is done, so the idle only lets the observer's last readings in, two of its polls.
     */
    public static final java.time.Duration DONE_IDLE = AppObserver.POLL.multipliedBy(2);

    private static final String APP = """
            <!DOCTYPE html><meta charset="utf-8"><title>an app</title><button id="run" disabled>run</button>
            <script type="module" src="/app.mjs"></script>""";
    private static final String SCRIPT = """
            import * as ort from '/ort/ort.all.min.mjs';
            ort.env.wasm.wasmPaths = '/ort/';
            ort.env.wasm.numThreads = 1;
            const ep = new URLSearchParams(location.search).get('ep') || 'wasm';
            const s = await ort.InferenceSession.create('/model.onnx', { executionProviders: [ep] });
            const button = document.getElementById('run');
            button.onclick = async () => {
              const x = new ort.Tensor('float32', Float32Array.from({ length: 8 }, (_, i) => i / 8 - 0.5), [2, 4]);
              const out = await s.run({ [s.inputNames[0]]: x });
              document.body.dataset.done = Object.keys(out).join(',');
            };
            button.disabled = false;
            """;

    /** A page that makes 100 sessions of the model, one after another, each released. */
    private static final String MANY = """
            import * as ort from '/ort/ort.all.min.mjs';
            ort.env.wasm.wasmPaths = '/ort/';
            ort.env.wasm.numThreads = 1;
            const bytes = new Uint8Array(await (await fetch('/model.onnx')).arrayBuffer());
            for (let i = 0; i < 100; i++) {
              const s = await ort.InferenceSession.create(bytes, { executionProviders: ['wasm'] });
              await s.release();
            }
            document.body.dataset.done = '100';
            """;

    /**
     * An app on transformers.js as its users write one: the self-contained bundle from npm ({@code transformers.min.js},
     * onnxruntime-web inlined), a {@code feature-extraction} pipeline on a local model folder ({@code /x/models/minilm},
     * no hub), the WebAssembly binaries from the onnxruntime-web it depends on ({@code /x/ort/}); {@code ?device=} and
     * {@code ?dtype=} as transformers.js takes them (default {@code wasm}, {@code q8}). The button embeds two sentences,
     * mean-pooled and normalised, and marks the body with the result's dimensions.
     */
    private static final String TRANSFORMERS = """
            import { pipeline, env } from '/x/tjs/transformers.min.js';
            env.allowRemoteModels = false;
            env.allowLocalModels = true;
            env.localModelPath = '/x/models/';
            env.useBrowserCache = false;
            env.backends.onnx.wasm.wasmPaths = '/x/ort/';
            env.backends.onnx.wasm.numThreads = 1;
            const q = new URLSearchParams(location.search);
            const extractor = await pipeline('feature-extraction', 'minilm', { device: q.get('device') || 'wasm', dtype: q.get('dtype') || 'q8' });
            const button = document.getElementById('run');
            button.onclick = async () => {
              const out = await extractor(['The cat sat on the mat.', 'A dog ran in the park.'], { pooling: 'mean', normalize: true });
              document.body.dataset.done = out.dims.join('x');
            };
            button.disabled = false;
            """;

    /** The second button of {@code /leave}: runs without end, and navigates away after the third. */
    private static final String LEAVE = """
            document.getElementById('leave').onclick = async () => {
              for (let i = 0; ; i++) {
                if (i === 3) location.href = '/empty';
                await s.run({ [s.inputNames[0]]: new ort.Tensor('float32', new Float32Array(8), [2, 4]) });
                await new Promise(r => setTimeout(r, 10)); // an app's loop yields to the page (one that does not: /busy)
              }
            };
            """;

    /** {@code /huge}: the app's session fed 1 GiB; whether onnxruntime-web runs it or not, the page says it is done. */
    private static final String HUGE = """
            import * as ort from '/ort/ort.all.min.mjs';
            ort.env.wasm.wasmPaths = '/ort/';
            ort.env.wasm.numThreads = 1;
            const s = await ort.InferenceSession.create('/model.onnx', { executionProviders: ['wasm'] });
            const button = document.getElementById('run');
            button.onclick = async () => {
              try {
                const x = new ort.Tensor('float32', new Float32Array(1 << 28).fill(0.25), [1 << 26, 4]);
                await s.run({ [s.inputNames[0]]: x });
                document.body.dataset.done = 'ran';
              } catch (e) {
                document.body.dataset.done = 'refused: ' + e;
              }
            };
            button.disabled = false;
            """;

    /**
     * {@code /odd}: the first app on a page that does odd things with what the observer reads beside it: a worker started
     * with its type as an array (Chromium takes {@code ['module']} for {@code 'module'}), {@code Date.now} giving a
     * {@code Date}, {@code performance.now} giving 1e300 once, a WebCrypto digest that never settles.
     */
    private static final String ODD = """
            const realNow = Date.now;
            Date.now = () => new Date(realNow());
            const pnow = performance.now.bind(performance);
            let once = true;
            performance.now = () => { if (once) { once = false; return 1e300; } return pnow(); };
            new Worker(URL.createObjectURL(new Blob(['postMessage(1)'], { type: 'text/javascript' })), { type: ['module'] });
            crypto.subtle.digest = () => new Promise(() => {});
            """;

    /**
     * {@code /clicker}: the first app on a page that has every anchor it is asked to save save another model of the same
     * length instead ({@code /decoy.bin}), by replacing {@code HTMLAnchorElement.prototype.click}.
     */
    private static final String CLICKER = """
            const other = await (await fetch('/decoy.bin')).arrayBuffer();
            const realClick = HTMLAnchorElement.prototype.click;
            HTMLAnchorElement.prototype.click = function () {
              if (this.download) this.href = URL.createObjectURL(new Blob([other]));
              return realClick.call(this);
            };
            """;

    /** {@code /downloader}: the first app, which also has the browser download 8 MiB of its own three times when it runs. */
    private static final String DOWNLOADER = """
            for (let i = 0; i < 3; i++) {
              const a = document.createElement('a');
              a.href = URL.createObjectURL(new Blob([new Uint8Array(8 << 20)]));
              a.download = 'mine-' + i + '.bin';
              a.click();
            }
            """;

    /** The app's model. */
    public final ModelSpec model;
    /** Its bytes, as the app serves them. */
    public final byte[] modelBytes;
    private final Javalin app;
    private final java.util.Map<String, byte[]> files = new java.util.concurrent.ConcurrentHashMap<>();
    private final java.util.Map<String, Path> roots = new java.util.concurrent.ConcurrentHashMap<>();

    /** Writes the app's model to {@code dir} and starts its server. */
    public ObservedApp(Path dir) throws IOException {
        this.model = TinyOnnx.write(TinyOnnx.small(), dir, "app-mlp");
        this.modelBytes = Files.readAllBytes(model.path());
        this.app = Javalin.create(cfg -> {
            cfg.staticFiles.add(s -> {
                s.hostedPath = "/ort";
                s.directory = "/" + ServedPage.CLASSPATH_ROOT + "/ort";
                s.location = Location.CLASSPATH;
                s.mimeTypes.add("text/javascript", "mjs");
                s.mimeTypes.add("application/wasm", "wasm");
            });
            cfg.routes.get("/", ctx -> ctx.html(APP));
            cfg.routes.get("/empty", ctx -> ctx.html("<!DOCTYPE html><title>no model here</title><p>hello</p>"));
            cfg.routes.get("/many", ctx -> ctx.html("<!DOCTYPE html><title>many sessions</title><script type=\"module\" src=\"/many.mjs\"></script>"));
            cfg.routes.get("/many.mjs", ctx -> ctx.contentType("text/javascript").result(MANY));
            cfg.routes.get("/frames", ctx -> ctx.html("<!DOCTYPE html><title>frames</title>"
                    + "<iframe src=\"/empty\"></iframe>".repeat(70)));
            cfg.routes.get("/bundled", ctx -> ctx.html(APP.replace("/app.mjs", "/files/bundle.js")));
            cfg.routes.get("/page/{name}", ctx -> ctx.html(APP.replace("/app.mjs", "/files/" + ctx.pathParam("name") + ".js")));
            cfg.routes.get("/files/{name}", ctx -> {
                byte[] b = files.get(ctx.pathParam("name"));
                if (b == null) {
                    ctx.status(404);
                } else {
                    ctx.contentType(ctx.pathParam("name").endsWith(".js") ? "text/javascript" : "application/octet-stream").result(b);
                }
            });
            cfg.routes.get("/leave", ctx -> ctx.html(APP.replace("</button>", "</button><button id=\"leave\">leave</button>")
                    .replace("/app.mjs", "/leave.mjs")));
            cfg.routes.get("/leave.mjs", ctx -> ctx.contentType("text/javascript").result(SCRIPT + LEAVE));
            cfg.routes.get("/huge", ctx -> ctx.html(APP.replace("/app.mjs", "/huge.mjs")));
            cfg.routes.get("/huge.mjs", ctx -> ctx.contentType("text/javascript").result(HUGE));
            cfg.routes.get("/busy", ctx -> ctx.html("<!DOCTYPE html><title>busy</title><script>for (;;) {}</script>"));
            cfg.routes.get("/tjs", ctx -> ctx.html(APP.replace("/app.mjs", "/tjs.mjs")));
            cfg.routes.get("/tjs.mjs", ctx -> ctx.contentType("text/javascript").result(TRANSFORMERS));
            cfg.routes.get("/tjs-worker", ctx -> ctx.html(APP.replace("/app.mjs", "/tjs-page.mjs")));
            cfg.routes.get("/tjs-page.mjs", ctx -> ctx.contentType("text/javascript").result(ThreadedApp.PAGE_OF.replace("WORKER",
                    "/tjs-worker.mjs")));
            cfg.routes.get("/tjs-worker.mjs", ctx -> ctx.contentType("text/javascript").result(ThreadedApp.inWorker(TRANSFORMERS)));
            cfg.routes.get("/x/{root}/<path>", ctx -> {
                Path root = roots.get(ctx.pathParam("root"));
                Path file = root == null ? null : root.resolve(ctx.pathParam("path")).normalize();
                if (file == null || !file.startsWith(root) || !Files.isRegularFile(file)) {
                    ctx.status(404);
                } else {
                    String name = file.getFileName().toString();
                    ctx.contentType(name.endsWith(".js") || name.endsWith(".mjs") ? "text/javascript"
                            : name.endsWith(".wasm") ? "application/wasm" : name.endsWith(".json") ? "application/json"
                            : "application/octet-stream").result(Files.readAllBytes(file));
                }
            });
            ThreadedApp.routes(cfg.routes);
            cfg.routes.get("/proxy", ctx -> ctx.html(APP.replace("/app.mjs", "/proxy.mjs")));
            cfg.routes.get("/proxy.mjs", ctx -> ctx.contentType("text/javascript").result(SCRIPT.replace(
                    "ort.env.wasm.numThreads = 1;", "ort.env.wasm.numThreads = 1;\nort.env.wasm.proxy = true;")));
            cfg.routes.get("/app.mjs", ctx -> ctx.contentType("text/javascript").result(SCRIPT));
            cfg.routes.get("/clicker", ctx -> ctx.html(APP.replace("/app.mjs", "/clicker.mjs")));
            cfg.routes.get("/clicker.mjs", ctx -> ctx.contentType("text/javascript").result(SCRIPT.replace("const s = await", CLICKER + "const s = await")));
            cfg.routes.get("/downloader", ctx -> ctx.html(APP.replace("/app.mjs", "/downloader.mjs")));
            cfg.routes.get("/downloader.mjs", ctx -> ctx.contentType("text/javascript").result(SCRIPT.replace(
                    "document.body.dataset.done =", DOWNLOADER + "document.body.dataset.done =")));
            cfg.routes.get("/odd", ctx -> ctx.html(APP.replace("/app.mjs", "/odd.mjs")));
            cfg.routes.get("/odd.mjs", ctx -> ctx.contentType("text/javascript").result(SCRIPT.replace("const s = await", ODD + "const s = await")));
            cfg.routes.get("/model.onnx", ctx -> ctx.contentType("application/octet-stream").result(modelBytes));
            cfg.routes.get("/decoy", ctx -> ctx.html(APP.replace("/app.mjs", "/decoy.mjs")));
            cfg.routes.get("/decoy.mjs", ctx -> ctx.contentType("text/javascript").result(SCRIPT.replace("'/model.onnx'",
                    "(await fetch('/decoy.bin'), Uint8Array.from(atob('" + java.util.Base64.getEncoder().encodeToString(modelBytes)
                            + "'), c => c.charCodeAt(0)))")));
            cfg.routes.get("/decoy.bin", ctx -> {
                byte[] other = modelBytes.clone();
                other[other.length - 1] ^= 1; // the model's length, other bytes
                ctx.contentType("application/octet-stream").result(other);
            });
        }).start("127.0.0.1", 0);
    }

    /** Serves {@code bytes} at {@code /files/NAME} ({@code /bundled} loads {@code bundle.js} from there). */
    public void put(String name, byte[] bytes) {
        files.put(name, bytes);
    }

    /** Serves the files under {@code dir} at {@code /x/ROOT/}. */
    public void serve(String root, Path dir) {
        roots.put(root, dir.toAbsolutePath().normalize());
    }

    /**
     * The npm packages the observed apps are built from ({@code browser-runtime/apps/node_modules}, installed with the
     * tests), found from the working folder up; empty when they are not installed.
     */
    public static java.util.Optional<Path> appPackages() {
        for (Path d = Path.of("").toAbsolutePath(); d != null; d = d.getParent()) {
            for (Path p : java.util.List.of(d.resolve("apps/node_modules"), d.resolve("browser-runtime/apps/node_modules"))) {
                if (Files.isDirectory(p.resolve("@huggingface/transformers"))) {
                    return java.util.Optional.of(p);
                }
            }
        }
        return java.util.Optional.empty();
    }

    /** The app's script, as its own module imports onnxruntime-web ({@code from}: the import's specifier). */
    public static String script(String from) {
        return SCRIPT.replace("'/ort/ort.all.min.mjs'", "'" + from + "'");
    }

    /** Opens {@code path} in {@code page}, clicks the app's button once it is ready, and waits until the run is done. */
    public void drive(com.microsoft.playwright.Page page, String path) {
        java.util.List<String> said = new java.util.concurrent.CopyOnWriteArrayList<>();
        page.onPageError(said::add);
        page.onConsoleMessage(m -> {
            if (m.type().equals("error")) {
                said.add(m.text());
            }
        });
        try {
            page.navigate(url(path));
            page.locator("#run:enabled").click(new com.microsoft.playwright.Locator.ClickOptions().setTimeout(60_000));
            page.waitForSelector("body[data-done]", new com.microsoft.playwright.Page.WaitForSelectorOptions()
                    .setState(com.microsoft.playwright.options.WaitForSelectorState.ATTACHED).setTimeout(60_000));
        } catch (com.microsoft.playwright.PlaywrightException e) {
            throw new AssertionError("the app at " + path + " did not finish; its page said " + said, e);
        }
    }

    /**
     * The app's run as a case is judged: its model and the input the page fed it, natively on the CPU; each output value
     * within {@code tolerance} of native's (an AssertionError naming the first that is not).
     */
    public void assertAgreesWithNative(Observed.Run run, float tolerance) {
        dev.accelbridge.core.NamedTensor x = run.inputs().get(0).tensor().orElseThrow();
        dev.accelbridge.core.NamedTensor y = run.outputs().get(0).tensor().orElseThrow();
        dev.accelbridge.core.ModelCase mc = new dev.accelbridge.core.ModelCase(model, x.name(), java.util.List.of(x), java.util.Optional.empty());
        dev.accelbridge.core.NamedTensor ref = new dev.accelbridge.nativerunner.DjlOnnxRuntimeProvider().execute(new dev.accelbridge.core
                .ExecutionRequest(dev.accelbridge.core.BackendId.CPU, mc, 0, 1, java.time.Duration.ofMinutes(1))).outputs().get(0);
        org.assertj.core.api.Assertions.assertThat(y.shape()).isEqualTo(ref.shape());
        float[] got = y.toFloats();
        float[] want = ref.toFloats();
        for (int i = 0; i < want.length; i++) {
            org.assertj.core.api.Assertions.assertThat(got[i]).as("output %d", i).isCloseTo(want[i], org.assertj.core.data.Offset.offset(tolerance));
        }
    }

    /** The app's URL for {@code path}. */
    public String url(String path) {
        return "http://127.0.0.1:" + app.port() + path;
    }

    @Override
    public void close() {
        app.stop();
    }
}
