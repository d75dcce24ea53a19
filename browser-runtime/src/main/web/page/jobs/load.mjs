// The load job (docs/protocol.md, "load"): fetches the model (or takes the bytes its frame carried), makes the session
// with the options the bridge asked for and answers `loaded` with what onnxruntime-web made of it.
import { Kind } from '../kinds.mjs';
import { createSession } from '../session.mjs';
import { bridgeUrl } from '../link.mjs';
import { warningsOf } from './common.mjs';
import { openWindow, closeWindow } from '../ledger.mjs';
import { errorText } from '../probe.mjs';

// `modelBytes`: the model sent inline in a binary load frame, else null (the page fetches model.url).
export async function loadJob(page, msg, modelBytes) {
  const { ort, runtime } = page;
  if (!ort) throw new Error(`onnxruntime-web did not load in this page: ${page.ortError}`);
  const ep = epConfig(msg.ep);
  let bytes = modelBytes;
  let fetchMs = null; // sent in a frame: the page did not time the transfer
  if (!bytes) {
    if (!msg.model || !msg.model.url) throw new Error('load job has neither model.url nor a binary model');
    const t0 = performance.now();
    const resp = await fetch(bridgeUrl(msg.model.url, page.token), { cache: 'no-store' });
    if (!resp.ok) throw new Error(`fetching model ${msg.model.id} returned HTTP ${resp.status}`);
    bytes = new Uint8Array(await resp.arrayBuffer());
    fetchMs = performance.now() - t0;
  }
  const opts = msg.options || {};
  // The wasm thread count is fixed when onnxruntime-web starts its WebAssembly module (the first session):
  // the bridge asks for the same intra-op count as the native side, so browser-vs-native compares like with like.
  if (Number.isInteger(opts.numThreads) && opts.numThreads > 0 && !runtime.wasmStarted) {
    ort.env.wasm.numThreads = opts.numThreads;
  }
  runtime.wasmStarted = true;
  const sessionOptions = sessionOptionsOf(page, msg, ep, opts);
  page.ui.log(`job ${msg.job}: creating session ${msg.session} for ${msg.model && msg.model.name ? msg.model.name : 'model'} (${bytes.byteLength} bytes) on ${JSON.stringify(ep)}`);
  // the case's memory window (ledger.mjs): from before its session is made to its release
  openWindow(msg.session);
  // Where the nodes run: checked when asked (session.mjs); on a page whose engine for this provider has not started, and
  // when the bridge awaits the release, after the case (release.mjs), so the timed session holds the engine's start
  const engine = engineKey(ep);
  const atRelease = opts.checkPlacement === true && opts.placementAtRelease === true && !runtime.engines.has(engine);
  const capture = opts.listPlacement === true ? page.capture : null;
  let made;
  try {
    made = await createSession(ort, bytes, sessionOptions, opts.checkPlacement === true && !atRelease, capture);
  } catch (e) {
    // a session that was not made is never released: its window closes here, with its over-limit request as the reason
    const w = closeWindow(msg.session);
    if (w && w.overLimit) throw Object.assign(new Error(errorText(e)), { overLimit: w.overLimit });
    throw e;
  }
  const { session, sessionMs, placement } = made;
  runtime.engines.add(engine);
  page.sessions.set(msg.session, { session, runs: 0, ep: msg.ep.name, graphCapture: sessionOptions.enableGraphCapture === true, sessionOptions,
    checkPlacement: opts.checkPlacement === true,
    // the model again for the check at release: the bytes a frame carried (at most 1 MiB), else its URL, fetched then
    placementAtRelease: atRelease ? { bytes: modelBytes, url: modelBytes ? null : msg.model.url, capture } : null });
  if (msg.ep.name === 'webgpu') watchGpuDevice(page, msg.session);
  page.ui.log(`job ${msg.job}: session ready in ${sessionMs.toFixed(1)} ms`);
  page.link.send({ type: Kind.LOADED, job: msg.job, session: msg.session, sessionMs, fetchMs, modules: wasmModules(page),
    inputNames: session.inputNames, outputNames: session.outputNames,
    numThreads: ort.env.wasm.numThreads ?? null, warnings: warningsOf(page), placement });
}

function sessionOptionsOf(page, msg, ep, opts) {
  const sessionOptions = {
    executionProviders: [ep],
    graphOptimizationLevel: ['disabled', 'basic', 'extended', 'all'].includes(opts.graphOptimizationLevel) ? opts.graphOptimizationLevel : 'all',
    logSeverityLevel: opts.logSeverityLevel ?? 2,
  };
  // A session made for per-op profiling only: the timed session never has the profiler on.
  if (opts.enableProfiling === true) sessionOptions.enableProfiling = true;
  // Weights kept beside the model (ONNX external data): each file by its opaque URL, under the name the model uses.
  if (msg.model && Array.isArray(msg.model.externalData) && msg.model.externalData.length > 0) {
    sessionOptions.externalData = msg.model.externalData.map((e) => ({ path: e.path, data: bridgeUrl(e.url, page.token).href }));
  }
  // Outputs left on the GPU (a WebGPU decoder's cache, fed back to its next step): names to 'gpu-buffer' only.
  if (opts.preferredOutputLocation && typeof opts.preferredOutputLocation === 'object') {
    const where = {};
    for (const [k, v] of Object.entries(opts.preferredOutputLocation)) if (v === 'gpu-buffer') where[k] = v;
    sessionOptions.preferredOutputLocation = where;
  }
  // Graph capture (run --runtime-option graph-capture=on): onnxruntime-web then takes GPU buffers only (the run job uploads
  // the feeds, the outputs stay on the GPU); a model it cannot capture is refused at creation in its own words.
  if (opts.enableGraphCapture === true && msg.ep && msg.ep.name === 'webgpu') sessionOptions.enableGraphCapture = true;
  // The same free-dimension values the native side sets, so both build the same static graph.
  if (opts.freeDimensionOverrides && typeof opts.freeDimensionOverrides === 'object') {
    sessionOptions.freeDimensionOverrides = opts.freeDimensionOverrides;
  }
  return sessionOptions;
}

// What starts once per page and provider (onnxruntime-web's WebAssembly and the provider's backend: a WebGPU device, a
// WebNN context of a device type): the first session on it pays for the start.
function engineKey(ep) {
  return typeof ep === 'string' ? ep : `${ep.name}:${ep.deviceType || ''}`;
}

function epConfig(ep) {
  if (!ep || typeof ep.name !== 'string') throw new Error('load job without ep.name');
  if (ep.name === 'webnn') {
    const c = { name: 'webnn' };
    if (ep.deviceType) c.deviceType = ep.deviceType;
    if (ep.powerPreference) c.powerPreference = ep.powerPreference;
    return c;
  }
  // WebGPU in the object form: the native WebGPU EP reads its own options (validationMode, storageBufferCacheMode) and the
  // session's enableGraphCapture only from an object (given the bare name it drops them); JSEP reads the same form
  if (ep.name === 'webgpu') {
    const c = { name: 'webgpu' };
    for (const k of ['validationMode', 'storageBufferCacheMode']) if (typeof ep[k] === 'string') c[k] = ep[k];
    return c;
  }
  if (ep.name === 'wasm' || ep.name === 'webgl') return ep.name;
  throw new Error(`unknown execution provider '${ep.name}' (use webgpu, webnn or wasm)`);
}

function watchGpuDevice(page, sessionId) {
  try {
    const d = page.ort.env.webgpu && page.ort.env.webgpu.device;
    Promise.resolve(d).then((device) => {
      if (device && device.lost) {
        device.lost.then((info) => {
          // 'destroyed': the engine let its device go on purpose (the native WebGPU EP destroys its device when its last
          // session is released, and makes a new one for the next), which is no loss; a lost device says 'unknown'
          if (info.reason === 'destroyed') return;
          page.link.send({ type: Kind.ERROR, job: null, session: sessionId, code: 'device-lost',
            message: `GPU device lost: ${info.reason || 'unknown'}: ${info.message || ''}` });
        });
      }
    }).catch(() => {});
  } catch (e) { /* no webgpu device exposed */ }
}

// The onnxruntime-web WebAssembly modules this page fetched (file names): which engine runs is the module it loaded,
// observed here rather than assumed from the bundle; the bridge names each with the sha256 of the bytes it serves.
function wasmModules(page) {
  const base = page.ort && page.ort.env.wasm.wasmPaths;
  if (typeof base !== 'string') return [];
  const names = performance.getEntriesByType('resource').map((e) => e.name.split('?')[0])
    .filter((n) => n.startsWith(base) && n.endsWith('.wasm')).map((n) => n.slice(base.length));
  // kept: a full resource-timing buffer records no more
  if (names.length > 0) page.runtime.modulesSeen = [...new Set(names)];
  return page.runtime.modulesSeen;
}
