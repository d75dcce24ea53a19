// The Accelbridge inference page: probes the browser, connects back to the bridge over WebSocket and runs the jobs it
// receives with onnxruntime-web (protocol v1, docs/protocol.md). Timings are taken in the jobs, with performance.now()
// around `await session.run(feeds)`, so the bridge's overhead is not counted. This module starts the page: its state is
// the one object made here and passed to every part; what each message kind does is jobs/table.mjs.
import { ortBase, ortLoaded } from './ortload.mjs';
import { probeBrowser, errorText } from './probe.mjs';
import { createUi } from './ui.mjs';
import { captureConsole } from './capture.mjs';
import { Link } from './link.mjs';
import { JobQueue } from './queue.mjs';
import { Inbound } from './transfer.mjs';
import { onText, onBinary } from './inbox.mjs';

// The page's state, the one place it is held. `runtime` is what onnxruntime-web has become in this document:
// wasmStarted once a session was created (ort.env.wasm.numThreads is fixed from then on), modulesSeen the WebAssembly
// modules it fetched, engines the providers a session was made on (jobs/load.mjs: the first one's start).
function createPage(params, doc) {
  const page = {
    token: params.get('token'),
    slot: params.get('slot'),
    ort: null,
    ortError: null,
    probe: null,
    ui: createUi(doc),
    capture: captureConsole(),
    sessions: new Map(), // session id (the bridge's) -> { session, runs, ep, graphCapture, sessionOptions, checkPlacement, feeds }
    runtime: { wasmStarted: false, modulesSeen: [], engines: new Set() },
  };
  page.link = new Link({ ui: page.ui, token: page.token, hello: () => hello(page),
    onText: (data) => onText(page, data), onBinary: (buffer) => onBinary(page, buffer) });
  page.queue = new JobQueue(page.link, page.capture);
  page.inbound = new Inbound(page.link);
  return page;
}

function hello(page) {
  const { ort } = page;
  return { slot: page.slot, probe: page.probe,
    ort: ort ? { version: ort.env.versions ? ort.env.versions.web || ort.env.versions.common : null } : { error: page.ortError } };
}

// onnxruntime-web as ortload.mjs loaded it (asked for as the page started), set up for this page's jobs.
async function importOrt(page) {
  const { ort, error } = await ortLoaded;
  if (error !== undefined) {
    page.ortError = errorText(error);
    page.ui.log(`onnxruntime-web failed to load: ${page.ortError}`);
    return;
  }
  page.ort = ort;
  page.ort.env.wasm.wasmPaths = new URL(ortBase, location.href).href;
  page.ort.env.logLevel = 'warning';
}

function showFacts(page) {
  const { probe, ort, ui } = page;
  ui.fact('user agent', probe.userAgent);
  ui.fact('onnxruntime-web', ort && ort.env.versions ? ort.env.versions.web : `not loaded: ${page.ortError}`);
  ui.fact('cross-origin isolated', String(probe.crossOriginIsolated));
  ui.fact('wasm', `simd ${probe.wasm.simd}, threads ${probe.wasm.threads}, ${probe.hardwareConcurrency} logical cores`);
  ui.fact('webgpu', probe.webgpu.adapterFound
    ? `${probe.webgpu.vendor} ${probe.webgpu.architecture} ${probe.webgpu.description}`.trim() + (probe.webgpu.isFallbackAdapter ? ' (fallback adapter)' : '')
    : probe.webgpu.evidence);
  ui.fact('webnn', probe.webnn.present
    ? probe.webnn.contexts.map((c) => `${JSON.stringify(c.options)}: ${c.ok ? 'ok' : c.error}`).join('; ')
    : probe.webnn.evidence);
}

async function main() {
  const params = new URLSearchParams(location.search);
  const page = createPage(params, document);
  page.ui.setState('probing this browser…');
  await importOrt(page);
  page.probe = await probeBrowser();
  showFacts(page);
  page.link.connect(0);
}

main();
