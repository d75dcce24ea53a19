package dev.accelbridge.browser.observe;

/**
 * {@link ObservedApp}'s app built the way most apps are: its session made and run off the page's thread. {@code /threaded}
 * runs it in a module worker ({@code ?in=module}, the default), a classic worker made from a {@code blob:} URL that
 * imports the same module ({@code ?in=classic}), or a worker started by a worker ({@code ?in=nested});
 * {@code /framed} is the first app in a same-origin frame; {@code /shared} starts a shared worker, {@code /service} registers a service worker;
 * {@code /over} feeds an input over the bound ({@link #OVER}); {@code /loop} an app
 * that times its own work ({@link #LOOP}). The button
 * ({@code #run}) is enabled once the worker's session is made and marks the body {@code data-done} with the output names.
 */
public final class ThreadedApp {
    /** The worker: makes the session, says it is ready, runs it when asked. */
    static final String WORK = """
            import * as ort from '/ort/ort.all.min.mjs';
            ort.env.wasm.wasmPaths = new URL('/ort/', import.meta.url).href; // a blob: worker resolves nothing relative
            ort.env.wasm.numThreads = 1;
            const s = await ort.InferenceSession.create(new URL('/model.onnx', import.meta.url).href, { executionProviders: ['wasm'] });
            self.onmessage = async () => {
              const x = new ort.Tensor('float32', Float32Array.from({ length: 8 }, (_, i) => i / 8 - 0.5), [2, 4]);
              const out = await s.run({ [s.inputNames[0]]: x });
              self.postMessage({ done: Object.keys(out).join(',') });
            };
            self.postMessage({ ready: true });
            """;

    /** A worker that starts the worker and passes messages both ways. */
    static final String OUTER = """
            const inner = new Worker('/work.mjs', { type: 'module' });
            inner.onmessage = e => self.postMessage(e.data);
            self.onmessage = e => inner.postMessage(e.data);
            """;

    /** The page: starts the worker as {@code ?in=} says and wires the button to it. */
    static final String PAGE = """
            const kind = new URLSearchParams(location.search).get('in') || 'module';
            const w = kind === 'classic'
              ? new Worker(URL.createObjectURL(new Blob(["import('" + location.origin + "/work.mjs');"], { type: 'text/javascript' })))
              : new Worker(kind === 'nested' ? '/outer.mjs' : '/work.mjs', { type: 'module' });
            const button = document.getElementById('run');
            w.onmessage = e => {
              if (e.data.ready) button.disabled = false;
              if (e.data.done) document.body.dataset.done = e.data.done;
            };
            button.onclick = () => w.postMessage('run');
            """;

    /**
     * An app that times its own work ({@code /loop?n=N&in=page|worker}): makes the session and runs it N times on the page's
     * thread or in a module worker, and marks the body {@code data-done} with its own figures ({@code {load, runs}} in ms,
     * by the page's clock): what the observer's cost is measured on.
     */
    static final String LOOP = """
            import * as ort from '/ort/ort.all.min.mjs';
            ort.env.wasm.wasmPaths = new URL('/ort/', import.meta.url).href;
            ort.env.wasm.numThreads = 1;
            const q = new URLSearchParams(self.location.search);
            const t0 = performance.now();
            const s = await ort.InferenceSession.create(new URL('/model.onnx', import.meta.url).href, { executionProviders: ['wasm'] });
            const t1 = performance.now();
            for (let i = 0, n = Number(q.get('n') || 100); i < n; i++) {
              await s.run({ [s.inputNames[0]]: new ort.Tensor('float32', Float32Array.from({ length: 8 }, (_, j) => (i + j) / 8), [2, 4]) });
            }
            const figures = JSON.stringify({ load: t1 - t0, runs: performance.now() - t1 });
            if (typeof document === 'undefined') self.postMessage({ done: figures }); else document.body.dataset.done = figures;
            """;

    /** An app that feeds its session one input of {@link #OVER_ROWS} x 4 floats: over the 1 MiB a tensor the observer keeps. */
    static final String OVER = """
            import * as ort from '/ort/ort.all.min.mjs';
            ort.env.wasm.wasmPaths = '/ort/';
            ort.env.wasm.numThreads = 1;
            const s = await ort.InferenceSession.create('/model.onnx', { executionProviders: ['wasm'] });
            const button = document.getElementById('run');
            button.onclick = async () => {
              const x = new ort.Tensor('float32', new Float32Array(ROWS * 4).fill(0.25), [ROWS, 4]);
              const out = await s.run({ [s.inputNames[0]]: x });
              document.body.dataset.done = out[s.outputNames[0]].dims.join('x');
            };
            button.disabled = false;
            """.replace("ROWS", "70000");
    /** The rows of {@link #OVER}'s input: 70000 x 4 floats, 1.07 MiB. */
    static final int OVER_ROWS = 70000;

    /** A page that starts the module worker {@code WORKER} with the page's own query and wires the button to it. */
    static final String PAGE_OF = """
            const w = new Worker('WORKER' + location.search, { type: 'module' });
            const button = document.getElementById('run');
            w.onmessage = e => {
              if (e.data.ready) button.disabled = false;
              if (e.data.done) document.body.dataset.done = e.data.done;
            };
            button.onclick = () => w.postMessage('run');
            """;

    private ThreadedApp() {
    }

    /**
     * A page's app script as a worker's: the same module with the page's parts put the worker's way (its query from the
     * worker's own location, its button a message in and the result a message out).
     */
    static String inWorker(String pageScript) {
        return pageScript.replace("new URLSearchParams(location.search)", "new URLSearchParams(self.location.search)")
                .replace("const button = document.getElementById('run');\nbutton.onclick = async () => {", "self.onmessage = async () => {")
                .replace("document.body.dataset.done = ", "self.postMessage({ done: ")
                .replace("out.dims.join('x');", "out.dims.join('x') });")
                .replace("button.disabled = false;", "self.postMessage({ ready: true });");
    }

    static void routes(io.javalin.config.RoutesConfig r) {
        r.get("/threaded", ctx -> ctx.html("<!DOCTYPE html><title>a threaded app</title><button id=\"run\" disabled>run</button>"
                + "<script type=\"module\" src=\"/threaded.mjs\"></script>"));
        r.get("/threaded.mjs", ctx -> ctx.contentType("text/javascript").result(PAGE));
        r.get("/work.mjs", ctx -> ctx.contentType("text/javascript").result(WORK));
        r.get("/outer.mjs", ctx -> ctx.contentType("text/javascript").result(OUTER));
        r.get("/loop", ctx -> ctx.html("<!DOCTYPE html><title>an app timing itself</title><body><script type=\"module\">"
                + "if (new URLSearchParams(location.search).get('in') === 'worker') { const w = new Worker('/loop.mjs' + location.search, "
                + "{ type: 'module' }); w.onmessage = e => { document.body.dataset.done = e.data.done; }; } else { await import('/loop.mjs'); }"
                + "</script></body>"));
        r.get("/loop.mjs", ctx -> ctx.contentType("text/javascript").result(LOOP));
        r.get("/framed", ctx -> ctx.html("<!DOCTYPE html><title>a framed app</title><iframe src=\"/\"></iframe>"));
        r.get("/service", ctx -> ctx.html("<!DOCTYPE html><title>a service worker</title><body><script>navigator.serviceWorker"
                + ".register('/sw.js').then(() => { document.body.dataset.done = 'registered'; }, e => { document.body.dataset.done = "
                + "'refused: ' + e; });</script></body>"));
        r.get("/sw.js", ctx -> ctx.contentType("text/javascript").result("self.addEventListener('fetch', () => {});"));
        r.get("/over", ctx -> ctx.html("<!DOCTYPE html><title>an input over the bound</title><button id=\"run\" disabled>run</button>"
                + "<script type=\"module\" src=\"/over.mjs\"></script>"));
        r.get("/over.mjs", ctx -> ctx.contentType("text/javascript").result(OVER));
        r.get("/shared", ctx -> ctx.html("<!DOCTYPE html><title>a shared worker</title><body><script>new SharedWorker('/outer.mjs', "
                + "{ type: 'module' }); document.body.dataset.done = 'started';</script></body>"));
    }
}
