// The Accelbridge inference page: probes the browser, connects back to the bridge over WebSocket and runs
// the jobs it receives with onnxruntime-web (protocol v1, docs/protocol.md). Timings are taken here, with
// performance.now() around `await session.run(feeds)`, so the bridge's overhead is not counted.
import { probeBrowser, errorText } from './probe.mjs';
import { Kind } from './kinds.mjs';
import { timerResolutionMs, readbackMs, gpuMsPerRun } from './clock.mjs';
import { SettleLoop, TimedLoop } from './settle.mjs';
import { generateJob } from './generate.mjs';
import { createSession } from './session.mjs';
import { BridgeSocket } from './socket.mjs';
import { PROTOCOL_VERSION, decodeFrame, encodeFrame, encodeChunk, tensorView, typedOf, FrameError } from './frames.mjs';

const params = new URLSearchParams(location.search);
const token = params.get('token');
const slot = params.get('slot');
// a version and a bundle path only (the bridge serves nothing else under /ort-web/)
const ortVersionAsked = /^[0-9A-Za-z][0-9A-Za-z.+_-]{0,79}$/.test(params.get('ort') || '') ? params.get('ort') : null;
const ortEntryAsked = /^(esm\/)?[A-Za-z0-9._-]+\.m?js$/.test(params.get('ortEntry') || '') ? params.get('ortEntry') : 'ort.all.min.mjs';
const stateEl = document.getElementById('state');
const factsEl = document.getElementById('facts');
const logEl = document.getElementById('log');

let ort = null;
let ortError = null;
let ws = null;
let probe = null;
let rejected = false;
let viaSaid = false; // the page's facts say once where its socket lives (socket.mjs)
const sessions = new Map();
let currentWarnings = null; // collects ORT's warnings while a job runs
let currentProfile = null; // collects the session profiler's events (one JSON object per console line) while profiling
let queue = Promise.resolve();
let wasmStarted = false; // true once a session was created (ort.env.wasm.numThreads is fixed from then on)
const incoming = new Map(); // job id -> a chunked run/profile whose input bytes are still arriving

function setState(text, cls) {
  stateEl.textContent = text;
  stateEl.className = cls || '';
}

// The page's visible log: lines kept in memory and drawn at most four times a second, outside the jobs. Appending to
// a 60 KB text node and scrolling it on every line forced a layout each time: measured, most of a tiny case's cost.
const logLines = [];
let logDrawn = true;
function log(line) {
  logLines.push(`${new Date().toISOString().substring(11, 23)} ${line}`);
  if (logLines.length > 600) logLines.splice(0, logLines.length - 400);
  if (!logDrawn) return;
  logDrawn = false;
  setTimeout(() => {
    logDrawn = true;
    logEl.textContent = `${logLines.join('\n')}\n`;
    logEl.scrollTop = logEl.scrollHeight;
  }, 250);
}

function fact(k, v) {
  const tr = document.createElement('tr');
  const a = document.createElement('td'); a.textContent = k;
  const b = document.createElement('td'); b.textContent = v;
  tr.append(a, b);
  factsEl.append(tr);
}

// ORT (and Emscripten's stderr) write warnings to the console. Keep those that arrive during a job, so the
// bridge learns about nodes that were not placed on the requested execution provider.
for (const level of ['warn', 'error', 'log', 'info']) {
  const orig = console[level].bind(console);
  console[level] = (...args) => {
    if (currentWarnings === null && currentProfile === null) { orig(...args); return; }
    // eslint-disable-next-line no-control-regex
    const text = args.map((a) => (typeof a === 'string' ? a : errorText(a))).join(' ').replace(/\x1b\[[0-9;]*m/g, '').trim();
    // ORT's session profiler (wasm build) prints its trace one event per line when profiling ends
    if (currentProfile !== null && text.startsWith('{"cat"')) {
      try { currentProfile.push(JSON.parse(text.replace(/,\s*$/, ''))); } catch (e) { /* not an event line */ }
      return;
    }
    orig(...args);
    if (currentWarnings === null) return;
    if (level === 'warn' || level === 'error' || /\[[WE]:onnxruntime/.test(text)) {
      if (currentWarnings.length < 200) currentWarnings.push(text.length > 2000 ? text.slice(0, 2000) : text);
    }
  };
}

function send(obj) {
  if (ws && ws.readyState === WebSocket.OPEN) ws.send(JSON.stringify({ v: PROTOCOL_VERSION, ...obj }));
}

function sendError(job, code, message) {
  log(`error ${code}${job ? ` (job ${job})` : ''}: ${message}`);
  send({ type: Kind.ERROR, job: job || null, code, message });
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

function watchGpuDevice(sessionId) {
  try {
    const d = ort.env.webgpu && ort.env.webgpu.device;
    Promise.resolve(d).then((device) => {
      if (device && device.lost) {
        device.lost.then((info) => {
          // 'destroyed': the engine let its device go on purpose (the native WebGPU EP destroys its device when its last
          // session is released, and makes a new one for the next), which is no loss; a lost device says 'unknown'
          if (info.reason === 'destroyed') return;
          send({ type: Kind.ERROR, job: null, session: sessionId, code: 'device-lost',
            message: `GPU device lost: ${info.reason || 'unknown'}: ${info.message || ''}` });
        });
      }
    }).catch(() => {});
  } catch (e) { /* no webgpu device exposed */ }
}

// The onnxruntime-web WebAssembly modules this page fetched (file names): which engine runs is the module it loaded,
// observed here rather than assumed from the bundle; the bridge names each with the sha256 of the bytes it serves.
let modulesSeen = [];
function wasmModules() {
  const base = ort && ort.env.wasm.wasmPaths;
  if (typeof base !== 'string') return [];
  const names = performance.getEntriesByType('resource').map((e) => e.name.split('?')[0])
    .filter((n) => n.startsWith(base) && n.endsWith('.wasm')).map((n) => n.slice(base.length));
  if (names.length > 0) modulesSeen = [...new Set(names)]; // kept: a full resource-timing buffer records no more
  return modulesSeen;
}

async function loadJob(msg, modelBytes) {
  if (!ort) throw new Error(`onnxruntime-web did not load in this page: ${ortError}`);
  const ep = epConfig(msg.ep);
  let bytes = modelBytes;
  let fetchMs = null; // sent in a frame: the page did not time the transfer
  if (!bytes) {
    if (!msg.model || !msg.model.url) throw new Error('load job has neither model.url nor a binary model');
    const t0 = performance.now();
    const url = new URL(msg.model.url, location.href);
    if (token && !url.searchParams.has('token')) url.searchParams.set('token', token);
    const resp = await fetch(url, { cache: 'no-store' });
    if (!resp.ok) throw new Error(`fetching model ${msg.model.id} returned HTTP ${resp.status}`);
    bytes = new Uint8Array(await resp.arrayBuffer());
    fetchMs = performance.now() - t0;
  }
  const opts = msg.options || {};
  // The wasm thread count is fixed when onnxruntime-web starts its WebAssembly module (the first session):
  // the bridge asks for the same intra-op count as the native side, so browser-vs-native compares like with like.
  if (Number.isInteger(opts.numThreads) && opts.numThreads > 0 && !wasmStarted) {
    ort.env.wasm.numThreads = opts.numThreads;
  }
  wasmStarted = true;
  const sessionOptions = {
    executionProviders: [ep],
    graphOptimizationLevel: ['disabled', 'basic', 'extended', 'all'].includes(opts.graphOptimizationLevel) ? opts.graphOptimizationLevel : 'all',
    logSeverityLevel: opts.logSeverityLevel ?? 2,
  };
  // A session made for per-op profiling only: the timed session never has the profiler on.
  if (opts.enableProfiling === true) sessionOptions.enableProfiling = true;
  // Weights kept beside the model (ONNX external data): each file by its opaque URL, under the name the model uses.
  if (msg.model && Array.isArray(msg.model.externalData) && msg.model.externalData.length > 0) {
    sessionOptions.externalData = msg.model.externalData.map((e) => {
      const u = new URL(e.url, location.href);
      if (token && !u.searchParams.has('token')) u.searchParams.set('token', token);
      return { path: e.path, data: u.href };
    });
  }
  // Outputs left on the GPU (a WebGPU decoder's cache, fed back to its next step): names to 'gpu-buffer' only.
  if (opts.preferredOutputLocation && typeof opts.preferredOutputLocation === 'object') {
    const where = {};
    for (const [k, v] of Object.entries(opts.preferredOutputLocation)) if (v === 'gpu-buffer') where[k] = v;
    sessionOptions.preferredOutputLocation = where;
  }
  // Graph capture (run --runtime-option graph-capture=on): onnxruntime-web then takes GPU buffers only (runJob uploads the
  // feeds, the outputs stay on the GPU); a model it cannot capture is refused at creation in its own words.
  if (opts.enableGraphCapture === true && msg.ep && msg.ep.name === 'webgpu') sessionOptions.enableGraphCapture = true;
  // The same free-dimension values the native side sets, so both build the same static graph.
  if (opts.freeDimensionOverrides && typeof opts.freeDimensionOverrides === 'object') {
    sessionOptions.freeDimensionOverrides = opts.freeDimensionOverrides;
  }
  log(`job ${msg.job}: creating session ${msg.session} for ${msg.model && msg.model.name ? msg.model.name : 'model'} (${bytes.byteLength} bytes) on ${JSON.stringify(ep)}`);
  // Where the nodes run: checked when asked (session.mjs)
  const { session, sessionMs, placement } = await createSession(ort, bytes, sessionOptions, opts.checkPlacement);
  sessions.set(msg.session, { session, runs: 0, ep: msg.ep.name, graphCapture: sessionOptions.enableGraphCapture === true, sessionOptions,
    checkPlacement: opts.checkPlacement === true });
  if (msg.ep.name === 'webgpu') watchGpuDevice(msg.session);
  log(`job ${msg.job}: session ready in ${sessionMs.toFixed(1)} ms`);
  send({ type: Kind.LOADED, job: msg.job, session: msg.session, sessionMs, fetchMs, modules: wasmModules(),
    inputNames: session.inputNames, outputNames: session.outputNames,
    numThreads: ort.env.wasm.numThreads ?? null, warnings: currentWarnings || [], placement });
}

// The feeds of a run or profile job: views into its frame, or the buffers its chunks filled.
function feedsOf(msg, views) {
  const feeds = {};
  (msg.tensors || []).forEach((t, i) => { feeds[t.name] = tensorOf(t.dtype, views[i], t.shape); });
  return feeds;
}

// A float16 tensor's data is a Uint16Array, the bits as they came; onnxruntime-web 1.18-1.20 in a browser that has
// Float16Array refuse that ("A float16 tensor's data must be type of function Float16Array()", onnxruntime#23817, fixed in
// 1.21), so such a release gets a Float16Array over the same bytes.
function tensorOf(dtype, data, shape) {
  try {
    return new ort.Tensor(dtype, data, shape);
  } catch (e) {
    if (dtype !== 'float16' || typeof Float16Array === 'undefined' || !(data instanceof Uint16Array)) throw e;
    return new ort.Tensor(dtype, new Float16Array(data.buffer, data.byteOffset, data.length), shape);
  }
}

function frameViews(frame) {
  return (frame.header.tensors || []).map((t) => tensorView(frame, t));
}

// Sends the outputs: in the result frame when small, else a header that describes them ("chunked": true) and one
// result-chunk frame per piece of at most chunkBytes, waiting while the socket's buffer is full so the page never queues
// a second copy of every output (docs/protocol.md, chunked transfer).
async function sendResult(header, tensors, chunkBytes) {
  const total = tensors.reduce((a, t) => a + t.data.byteLength, 0);
  if (!chunkBytes || total <= chunkBytes) { ws.send(encodeFrame(header, tensors)); return; }
  const descs = tensors.map((t) => ({ name: t.name, dtype: t.dtype, shape: t.dims.map(Number), offset: 0, byteLength: t.data.byteLength }));
  ws.send(encodeChunk({ ...header, chunked: true, tensors: descs }, new Uint8Array(0)));
  for (let i = 0; i < tensors.length; i++) {
    const d = tensors[i].data;
    const bytes = new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
    for (let off = 0; off < bytes.byteLength; off += chunkBytes) {
      while (ws.bufferedAmount > 4 * chunkBytes) await new Promise((r) => setTimeout(r, 2));
      if (ws.readyState !== WebSocket.OPEN) throw new Error('the bridge connection closed while the result was sent');
      ws.send(encodeChunk({ v: PROTOCOL_VERSION, type: Kind.RESULT_CHUNK, job: header.job, tensor: i, offset: off },
        bytes.subarray(off, Math.min(off + chunkBytes, bytes.byteLength))));
    }
  }
}

// A job's progress reporter: at most one message a second, sent between runs (never inside a timed one).
function progressOf(job) {
  let lastProgress = performance.now();
  return (phase, done, total) => {
    const now = performance.now();
    if (now - lastProgress < 1000) return;
    lastProgress = now;
    send({ type: Kind.PROGRESS, job, phase, done, total });
  };
}

// The feeds in GPU buffers of their own (graph capture takes nothing else), each padded to a multiple of 16 bytes.
function onGpu(feeds) {
  const device = ort.env.webgpu.device;
  const out = {};
  for (const [name, t] of Object.entries(feeds)) {
    const src = new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
    const size = Math.max(16, Math.ceil(src.byteLength / 16) * 16);
    const padded = new Uint8Array(size);
    padded.set(src);
    const buffer = device.createBuffer({ size, usage: GPUBufferUsage.STORAGE | GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
    device.queue.writeBuffer(buffer, 0, padded);
    out[name] = ort.Tensor.fromGpuBuffer(buffer, { dataType: t.type, dims: t.dims, dispose: () => buffer.destroy() });
  }
  return out;
}

// Each output's data. An output left on the GPU (preferredOutputLocation 'gpu-buffer': run --runtime-option outputs=...)
// is read back here, inside the timed run, so the time ends when the output is usable and never before it.
async function consumed(out) {
  const data = {};
  for (const k in out) data[k] = out[k].location === 'gpu-buffer' ? await out[k].getData() : out[k].data;
  return data;
}

// A run job: with "firstOnly" the session's first run alone (timed as firstMs; the bridge derives the deadline of the
// timed job from it); otherwise warm-ups, then timed runs. "sameInputs" reuses the inputs of the session's previous job,
// so large inputs cross once. Progress goes to the bridge at most once a second, between runs, never inside a timed one.
async function runJob(msg, views) {
  const entry = sessions.get(msg.session);
  if (!entry) throw new Error(`no session '${msg.session}' in this page (load it first)`);
  if (msg.generate) {
    const gpu = entry.ep === 'webgpu';
    const clock = { timerResolutionMs: timerResolutionMs(), readbackMs: gpu ? await readbackMs(ort) : null };
    await generateJob(ort, entry, msg, feedsOf(msg, views), {
      log,
      token,
      progress: progressOf(msg.job),
      sendResult: (fields, tensors) => {
        const mem = performance.memory ? { usedJSHeapSize: performance.memory.usedJSHeapSize } : null;
        return sendResult({ v: PROTOCOL_VERSION, type: Kind.RESULT, job: msg.job, session: msg.session, memory: mem,
          warnings: currentWarnings || [], ...clock, ...fields }, tensors, msg.chunkBytes);
      },
    });
    return;
  }
  let feeds;
  if (msg.sameInputs === true) {
    feeds = entry.feeds;
    if (!feeds) throw new Error(`session '${msg.session}' has no inputs from an earlier job to reuse`);
  } else {
    feeds = feedsOf(msg, views);
    // a captured graph replays on GPU buffers: the feeds are uploaded once, before any run, outside every timed one
    if (entry.graphCapture) feeds = onGpu(feeds);
    entry.feeds = feeds;
  }
  const session = entry.session;
  const dispose = (out) => { for (const k in out) { try { out[k].dispose(); } catch (e) { /* cpu tensor */ } } };
  let firstMs = null;
  if (entry.runs === 0) {
    const t0 = performance.now();
    const out = await session.run(feeds);
    await consumed(out);
    firstMs = performance.now() - t0;
    dispose(out);
    entry.runs++;
  }
  if (msg.firstOnly === true) {
    log(`job ${msg.job}: first run ${firstMs === null ? '(had run before)' : firstMs.toFixed(2) + ' ms'}`);
    ws.send(encodeFrame({ v: PROTOCOL_VERSION, type: Kind.RESULT, job: msg.job, session: msg.session, firstMs, warmups: 0,
      samplesMs: [], memory: null, warnings: currentWarnings || [] }, []));
    return;
  }
  const warmups = Math.max(0, msg.warmups | 0);
  const iterations = Math.max(1, msg.iterations | 0);
  // at least `iterations`, and on until minDurationMs of timed runs have passed (at most maxSamples)
  const timed = new TimedLoop(msg, iterations);
  const gpu = entry.ep === 'webgpu';
  const clock = { timerResolutionMs: timerResolutionMs(), readbackMs: gpu ? await readbackMs(ort) : null, gpuMs: null, warmupMs: null };
  const progress = progressOf(msg.job);
  // the warm-up phase, timed as a whole; on WebGPU its last run reads the GPU's own time (timestamp queries), so that
  // costs no run of its own
  // at least `warmups`, and on until warmupDurationMs have passed; then on until the runs stop getting faster, at most
  // 10 s (settle.mjs: the rule of core/Settling.java). Each warm-up run is timed for that alone, never kept as a sample.
  const warmupDurationMs = Math.max(0, Number(msg.warmupDurationMs) || 0);
  const settle = new SettleLoop(warmups, warmupDurationMs);
  const tw = performance.now();
  while (settle.more(performance.now() - tw)) {
    const t0 = performance.now();
    const out = await session.run(feeds);
    await consumed(out);
    settle.add(performance.now() - t0);
    dispose(out);
    entry.runs++;
    progress('warmup', settle.runs.length, warmups);
  }
  const warmed = settle.runs.length;
  // on WebGPU one more warm-up reads the GPU's own time (timestamp queries), so that costs no timed run
  if (gpu && warmups > 0) clock.gpuMs = await gpuMsPerRun(ort, session, feeds, 1, dispose);
  clock.warmupMs = performance.now() - tw;
  const samplesMs = [];
  let last = null;
  let lastData = null;
  for (let i = 0; timed.more(); i++) {
    const t0 = performance.now();
    const out = await session.run(feeds);
    const data = await consumed(out);
    const dt = performance.now() - t0;
    samplesMs.push(dt);
    timed.add(dt);
    entry.runs++;
    if (last) dispose(last);
    last = out;
    lastData = data;
    progress('timed', i + 1, iterations);
  }
  const tensors = session.outputNames.map((name) => {
    const t = last[name];
    return { name, dtype: t.type, dims: t.dims, data: lastData[name] };
  });
  // a job of one timed run and no warm-up (the op sweep) asks which ops work, not the GPU's time: no extra profiled run
  if (gpu && warmups === 0 && timed.maxSamples > 1) clock.gpuMs = await gpuMsPerRun(ort, session, feeds, 1, dispose);
  const sorted = [...samplesMs].sort((a, b) => a - b);
  log(`job ${msg.job}: first ${firstMs === null ? '-' : firstMs.toFixed(2)} ms, ${samplesMs.length} timed, median ${sorted[sorted.length >> 1].toFixed(3)} ms`);
  const mem = performance.memory ? { usedJSHeapSize: performance.memory.usedJSHeapSize, totalJSHeapSize: performance.memory.totalJSHeapSize } : null;
  try {
    await sendResult({ v: PROTOCOL_VERSION, type: Kind.RESULT, job: msg.job, session: msg.session, firstMs, warmups: warmed,
      samplesMs, memory: mem, warnings: currentWarnings || [], warmupSettled: settle.settled,
      warmupTrend: Number.isFinite(settle.trend) ? settle.trend : null, ...clock }, tensors, msg.chunkBytes);
  } finally {
    dispose(last);
  }
}

// Per-op profile of a session created with enableProfiling: one untimed run, then `iterations` profiled runs whose own
// wall times are reported too (so profiling's overhead can be stated), then the profiler's events. On webgpu the GPU
// kernel times come from timestamp queries (env.webgpu.profiling), read back after the GPU queue is done.
async function profileJob(msg, views) {
  const entry = sessions.get(msg.session);
  if (!entry) throw new Error(`no session '${msg.session}' in this page (load it first)`);
  const feeds = feedsOf(msg, views);
  const iterations = Math.max(1, msg.iterations | 0);
  const session = entry.session;
  const dispose = (out) => { for (const k in out) { try { out[k].dispose(); } catch (e) { /* cpu tensor */ } } };
  dispose(await session.run(feeds));
  const kernels = [];
  const gpu = entry.ep === 'webgpu' && ort.env.webgpu;
  if (gpu) ort.env.webgpu.profiling = { mode: 'default', ondata: (d) => { if (kernels.length < 200000) kernels.push(d); } };
  const samplesMs = [];
  try {
    for (let i = 0; i < iterations; i++) {
      const t0 = performance.now();
      const out = await session.run(feeds);
      samplesMs.push(performance.now() - t0);
      dispose(out);
    }
    if (gpu) {
      const device = await ort.env.webgpu.device;
      if (device) await device.queue.onSubmittedWorkDone();
      await new Promise((r) => setTimeout(r, 50)); // the query read-backs resolve after the queue
    }
  } finally {
    if (gpu) ort.env.webgpu.profiling = { mode: 'off' };
  }
  currentProfile = [];
  let events;
  try {
    session.endProfiling();
    await new Promise((r) => setTimeout(r, 0));
  } finally {
    events = currentProfile;
    currentProfile = null;
  }
  // only the node events, compactly: name, op, provider, duration (µs)
  const nodes = events.filter((e) => e.cat === 'Node' && typeof e.name === 'string' && e.name.endsWith('_kernel_time'))
    .map((e) => ({ node: e.name.slice(0, -'_kernel_time'.length), op: e.args && e.args.op_name, provider: e.args && e.args.provider, us: e.dur, ts: e.ts }));
  const runs = events.filter((e) => e.cat === 'Session' && e.name === 'model_run').map((e) => ({ ts: e.ts, us: e.dur }));
  const gpuKernels = kernels.map((k) => ({ node: k.kernelName, op: k.kernelType, program: k.programName, ns: k.endTime - k.startTime }));
  log(`job ${msg.job}: profiled ${iterations} runs: ${nodes.length} node events, ${gpuKernels.length} GPU kernels`);
  // `nodes` and `runs` cover every run of the session (the untimed one first); `gpuKernels` only the profiled ones
  send({ type: Kind.PROFILED, job: msg.job, session: msg.session, iterations, samplesMs, nodes, runs, gpuKernels,
    timestampQuery: gpu ? kernels.length > 0 : null });
}

async function releaseJob(msg) {
  const entry = sessions.get(msg.session);
  if (entry) {
    sessions.delete(msg.session);
    await entry.session.release();
    // the GPU buffers a captured graph was fed
    if (entry.graphCapture && entry.feeds) for (const t of Object.values(entry.feeds)) { try { t.dispose(); } catch (e) { /* gone */ } }
  }
  const memory = performance.memory ? { usedJSHeapSize: performance.memory.usedJSHeapSize } : null;
  send({ type: Kind.RELEASED, job: msg.job, session: msg.session, existed: !!entry, memory });
}

// Sessions whose release has arrived and not yet run: their jobs still in the queue are skipped, so a case the bridge has
// given up on or dropped (sent ahead and not used) does not keep the page from the jobs sent after it.
const releasing = new Set();

// Jobs run one after another; a job's failure is reported and the page goes on with the next.
function enqueue(job, phase, fn, session) {
  queue = queue.then(async () => {
    if (session !== undefined && releasing.has(session)) {
      sendError(job, 'released', `session '${session}' was released before this job began; the job did not run`);
      return;
    }
    currentWarnings = [];
    try {
      await fn();
    } catch (e) {
      sendError(job, phase === Kind.LOAD ? 'load-failed' : phase === Kind.RUN || phase === Kind.PROFILE ? 'run-failed' : 'job-failed', errorText(e));
    } finally {
      currentWarnings = null;
    }
  });
}

function onText(data) {
  let msg;
  try { msg = JSON.parse(data); } catch (e) { sendError(null, 'bad-frame', `text frame is not JSON: ${e.message}`); return; }
  if (!msg || typeof msg !== 'object') { sendError(null, 'bad-frame', 'text frame is not a JSON object'); return; }
  if (msg.v !== PROTOCOL_VERSION) { sendError(msg.job, 'version-mismatch', `page speaks protocol v${PROTOCOL_VERSION}, message has v=${msg.v}`); return; }
  switch (msg.type) {
    case Kind.WELCOME:
      setState(`connected to the bridge as page ${msg.pageId}; waiting for jobs`, 'ok');
      log(`joined as page ${msg.pageId}`);
      break;
    case Kind.PING:
      send({ type: Kind.PONG, job: msg.job, pageNow: performance.now() });
      break;
    case Kind.PROBE:
      enqueue(msg.job, Kind.PROBE, async () => { probe = await probeBrowser(); send({ type: Kind.PROBE, job: msg.job, probe }); });
      break;
    case Kind.LOAD:
      setState(`job ${msg.job}: loading ${msg.model && msg.model.name ? msg.model.name : 'a model'} on ${msg.ep && msg.ep.name}${msg.ep && msg.ep.deviceType ? '/' + msg.ep.deviceType : ''}`);
      enqueue(msg.job, Kind.LOAD, () => loadJob(msg, null), msg.session);
      break;
    case Kind.RELEASE:
      releasing.add(msg.session);
      enqueue(msg.job, Kind.RELEASE, () => { releasing.delete(msg.session); return releaseJob(msg); });
      break;
    case Kind.RENEW:
      renew(msg.url);
      break;
    case Kind.ERROR:
      log(`bridge reported ${msg.code}: ${msg.message}`);
      if (msg.code === 'forbidden' || msg.code === 'version-mismatch') { rejected = true; setState(`rejected by the bridge: ${msg.message}`, 'err'); }
      break;
    default:
      sendError(msg.job, 'unknown-type', `unknown message type '${msg.type}'`);
  }
}

// A fresh document in this tab, at the page URL the bridge gives (its own origin's page only): onnxruntime-web's
// WebAssembly state, its GPU device and everything a failed session left go with this one. After the jobs queued so far.
function renew(to) {
  let url;
  try { url = new URL(to, location.href); } catch (e) { sendError(null, 'bad-frame', 'renew: not a URL'); return; }
  if (url.origin !== location.origin || url.pathname !== '/') { sendError(null, 'bad-frame', 'renew: only this page, on this origin'); return; }
  queue = queue.then(() => {
    rejected = true; // no reconnecting from this document
    setState('opening a fresh page…');
    location.replace(url.href);
  });
}

// A run or profile job whose inputs come in chunks: each input gets its own buffer, filled chunk by chunk; the job is
// queued when the last byte arrives.
function beginChunked(msg) {
  try {
    const buffers = (msg.tensors || []).map((t) => new ArrayBuffer(t.byteLength));
    const remaining = (msg.tensors || []).reduce((a, t) => a + t.byteLength, 0);
    incoming.set(msg.job, { msg, buffers, remaining });
    if (remaining === 0) inputsArrived(msg.job);
  } catch (e) {
    sendError(msg.job, 'run-failed', `transfer: could not hold the job's inputs in this page: ${errorText(e)}`);
  }
}

function acceptChunk(frame) {
  const h = frame.header;
  const job = incoming.get(h.job);
  if (!job) { sendError(h.job, 'unknown-job', `no chunked job '${h.job}' is receiving inputs`); return; }
  const buf = job.buffers[h.tensor];
  const len = frame.payloadLength;
  if (!buf || h.offset < 0 || h.offset + len > buf.byteLength) {
    incoming.delete(h.job);
    sendError(h.job, 'run-failed', `transfer: a chunk of input ${h.tensor} at ${h.offset} (+${len}) lies outside it`);
    return;
  }
  new Uint8Array(buf, h.offset, len).set(new Uint8Array(frame.buffer, frame.payloadStart, len));
  job.remaining -= len;
  if (job.remaining === 0) inputsArrived(h.job);
}

function inputsArrived(jobId) {
  const { msg, buffers } = incoming.get(jobId);
  incoming.delete(jobId);
  let views;
  try { views = (msg.tensors || []).map((t, i) => typedOf(t, buffers[i])); } catch (e) { sendError(msg.job, 'bad-frame', errorText(e)); return; }
  dispatch(msg, views);
}

function dispatch(msg, views) {
  if (msg.type === Kind.RUN) {
    setState(`job ${msg.job}: running session ${msg.session}`);
    enqueue(msg.job, Kind.RUN, () => runJob(msg, views), msg.session);
  } else {
    setState(`job ${msg.job}: profiling session ${msg.session}`);
    enqueue(msg.job, Kind.PROFILE, () => profileJob(msg, views), msg.session);
  }
}

function onBinary(buffer) {
  let frame;
  try { frame = decodeFrame(buffer); } catch (e) { sendError(null, 'bad-frame', errorText(e)); return; }
  const msg = frame.header;
  if (msg.v !== PROTOCOL_VERSION) { sendError(msg.job, 'version-mismatch', `page speaks protocol v${PROTOCOL_VERSION}, frame has v=${msg.v}`); return; }
  if (msg.type === Kind.RUN || msg.type === Kind.PROFILE) {
    if (msg.chunked === true) { beginChunked(msg); return; }
    let views;
    try { views = frameViews(frame); } catch (e) { sendError(msg.job, 'bad-frame', errorText(e)); return; }
    dispatch(msg, views);
  } else if (msg.type === Kind.CHUNK) {
    acceptChunk(frame);
  } else if (msg.type === Kind.LOAD) {
    enqueue(msg.job, Kind.LOAD, () => loadJob(msg, new Uint8Array(buffer, frame.payloadStart, frame.payloadLength)), msg.session);
  } else {
    sendError(msg.job, 'unknown-type', `unknown binary frame type '${msg.type}'`);
  }
}

function connect(attempt) {
  const url = new URL('/ws', location.href);
  url.protocol = location.protocol === 'https:' ? 'wss:' : 'ws:';
  url.search = '';
  if (token) url.searchParams.set('token', token);
  setState(attempt ? `reconnecting to the bridge (attempt ${attempt + 1})…` : 'connecting to the bridge…');
  ws = new BridgeSocket(url);
  ws.onopen = () => {
    if (!viaSaid) fact('bridge connection', `WebSocket held by the ${ws.via}`);
    viaSaid = true;
    send({ type: Kind.HELLO, slot, probe, ort: ort ? { version: ort.env.versions ? ort.env.versions.web || ort.env.versions.common : null } : { error: ortError } });
    setState('connected; waiting for the bridge to accept this page');
  };
  ws.onmessage = (ev) => (typeof ev.data === 'string' ? onText(ev.data) : onBinary(ev.data));
  ws.onclose = (ev) => {
    log(`connection closed (${ev.code}${ev.reason ? ' ' + ev.reason : ''})`);
    if (rejected || ev.code === 1008) { setState(`the bridge refused this page: ${ev.reason || 'policy'}`, 'err'); return; }
    setState('disconnected from the bridge; retrying…', 'err');
    if (attempt < 30) setTimeout(() => connect(attempt + 1), 2000);
  };
}

async function main() {
  setState('probing this browser…');
  try {
    // the pinned onnxruntime-web, or the release this page's lane asked for (?ort=VERSION&ortEntry=BUNDLE), which the
    // bridge serves from that release's own dist folder; the bundle is the lane's engine (?ortEntry=ort.webgpu.min.mjs)
    const base = ortVersionAsked ? `./ort-web/${ortVersionAsked}/` : './ort/';
    ort = await import(base + ortEntryAsked);
    ort.env.wasm.wasmPaths = new URL(base, location.href).href;
    ort.env.logLevel = 'warning';
  } catch (e) {
    ortError = errorText(e);
    log(`onnxruntime-web failed to load: ${ortError}`);
  }
  probe = await probeBrowser();
  fact('user agent', probe.userAgent);
  fact('onnxruntime-web', ort && ort.env.versions ? ort.env.versions.web : `not loaded: ${ortError}`);
  fact('cross-origin isolated', String(probe.crossOriginIsolated));
  fact('wasm', `simd ${probe.wasm.simd}, threads ${probe.wasm.threads}, ${probe.hardwareConcurrency} logical cores`);
  fact('webgpu', probe.webgpu.adapterFound
    ? `${probe.webgpu.vendor} ${probe.webgpu.architecture} ${probe.webgpu.description}`.trim() + (probe.webgpu.isFallbackAdapter ? ' (fallback adapter)' : '')
    : probe.webgpu.evidence);
  fact('webnn', probe.webnn.present
    ? probe.webnn.contexts.map((c) => `${JSON.stringify(c.options)}: ${c.ok ? 'ok' : c.error}`).join('; ')
    : probe.webnn.evidence);
  connect(0);
}

main();
