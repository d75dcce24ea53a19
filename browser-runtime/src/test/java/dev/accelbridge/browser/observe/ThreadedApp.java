package dev.accelbridge.browser.observe;

/**
 * {@link ObservedApp}'s app built the way most apps are: its session made and run off the page's thread. {@code /threaded}
 * runs it in a module worker ({@code ?in=module}, the default), a classic worker made from a {@code blob:} URL that
 * imports the same module ({@code ?in=classic}), or a worker started by a worker ({@code ?in=nested});
 * {@code /framed} is the first app in a same-origin frame; {@code /shared} starts a shared worker. The button
 * ({@code #run}) is enabled once the worker's session is made and marks the body {@code data-done} with the output names.
 */
final class ThreadedApp {
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
        r.get("/framed", ctx -> ctx.html("<!DOCTYPE html><title>a framed app</title><iframe src=\"/\"></iframe>"));
        r.get("/shared", ctx -> ctx.html("<!DOCTYPE html><title>a shared worker</title><body><script>new SharedWorker('/outer.mjs', "
                + "{ type: 'module' }); document.body.dataset.done = 'started';</script></body>"));
    }
}
