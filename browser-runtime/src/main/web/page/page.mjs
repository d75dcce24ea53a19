// The Accelbridge inference page: probes the browser, connects back to the bridge over WebSocket and runs the jobs it
// receives with onnxruntime-web (protocol v1, docs/protocol.md). Timings are taken in the jobs, with performance.now()
// around `await session.run(feeds)`, so the bridge's overhead is not counted. This module starts the page: its state is
// the one object made here and passed to every part; what each message kind does is jobs/table.mjs.
import { DEFAULT_ENTRY } from './bundle.mjs';
import { probeBrowser, errorText } from './probe.mjs';
import { createUi } from './ui.mjs';
import { captureConsole } from './capture.mjs';
import { Link } from './link.mjs';
import { JobQueue } from './queue.mjs';
import { Inbound } from './transfer.mjs';
import { onText, onBinary } from './inbox.mjs';
import { installLedger } from './ledger.mjs';

// The page's state, the one place it is held. `runtime` is what onnxruntime-web has become in this document:
// wasmStarted once a session was created (ort.env.wasm.numThreads is fixed from then on), modulesSeen the WebAssembly
// modules it fetched.
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
    runtime: { wasmStarted: false, modulesSeen: [] },
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

// The pinned onnxruntime-web, or the release this page's lane asked for (?ort=VERSION&ortEntry=BUNDLE), which the
// bridge serves from that release's own dist folder; the bundle is the lane's engine (?ortEntry=ort.webgpu.min.mjs).
// Only a version and a bundle path are taken: the bridge serves nothing else under /ort-web/.
async function importOrt(page, params) {
  const version = /^[0-9A-Za-z][0-9A-Za-z.+_-]{0,79}$/.test(params.get('ort') || '') ? params.get('ort') : null;
  const entry = /^(esm\/)?[A-Za-z0-9._-]+\.m?js$/.test(params.get('ortEntry') || '') ? params.get('ortEntry') : DEFAULT_ENTRY;
  try {
    const base = version ? `./ort-web/${version}/` : './ort/';
    page.ort = await import(base + entry);
    page.ort.env.wasm.wasmPaths = new URL(base, location.href).href;
    page.ort.env.logLevel = 'warning';
  } catch (e) {
    page.ortError = errorText(e);
    page.ui.log(`onnxruntime-web failed to load: ${page.ortError}`);
  }
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
  installLedger(); // before onnxruntime-web loads: every GPU buffer and WebAssembly memory it makes passes through it
  await importOrt(page, params);
  page.probe = await probeBrowser();
  showFacts(page);
  page.link.connect(0);
}

main();
