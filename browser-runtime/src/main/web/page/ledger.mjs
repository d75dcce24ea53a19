// The page's memory ledger: what a case holds on the GPU and in onnxruntime-web's WebAssembly memory, seen from the page
// itself. WebGPU has no memory query, so every buffer a device makes (GPUDevice.createBuffer) and lets go (GPUBuffer.destroy,
// the device's destroy, or the buffer collected unreferenced) passes through here: installed before onnxruntime-web
// loads, it sees both engines' buffers (JSEP makes them in JavaScript, the native WebGPU EP through Emscripten's WebGPU
// bindings, which call the same methods). The WebAssembly memories are the ones onnxruntime-web instantiates its
// modules with. A case is a window: opened when its session is loaded, closed (and its figures formed) when it is released.
// Nothing here runs inside a timed run but a map update per buffer made or destroyed.

const state = {
  installed: false,
  live: 0, // bytes of buffers made and not yet let go, all devices
  windows: new Map(), // key -> an open window (open)
  memories: new Set(), // WebAssembly.Memory objects seen at instantiation
  limits: null, // { maxBufferSize, maxStorageBufferBindingSize } of the last device that made a buffer
};

// One record per buffer: its size and its device's record; a device's record counts what it still holds, so a destroyed
// device takes its buffers with it (the native WebGPU EP destroys its device with its last session).
const devices = new WeakMap();
const gone = typeof FinalizationRegistry === 'function' ? new FinalizationRegistry((rec) => letGo(rec)) : null;

function deviceRecord(device) {
  let d = devices.get(device);
  if (!d) {
    d = { live: 0, destroyed: false, buffers: new Set() };
    devices.set(device, d);
  }
  return d;
}

function letGo(rec) {
  if (rec.gone) return;
  rec.gone = true;
  rec.dev.buffers.delete(rec);
  if (rec.dev.destroyed) return;
  rec.dev.live -= rec.size;
  state.live -= rec.size;
}

function made(device, size, usage) {
  const dev = deviceRecord(device);
  const rec = { size, dev, gone: false, usage };
  dev.buffers.add(rec);
  dev.live += size;
  state.live += size;
  const lim = device.limits;
  if (lim) state.limits = { maxBufferSize: Number(lim.maxBufferSize), maxStorageBufferBindingSize: Number(lim.maxStorageBufferBindingSize) };
  for (const w of state.windows.values()) {
    w.buffers++;
    w.allocated += size;
    if (state.live > w.peak) w.peak = state.live;
    if (size > w.largest) w.largest = size;
    // a request above what the device allows: WebGPU answers with an invalid buffer (or a lost device) and the engine's
    // error, if any, does not say why; the window keeps the first such request for the case's verdict
    if (lim && w.overLimit === null && size > Number(lim.maxBufferSize)) {
      w.overLimit = { bytes: size, limit: 'maxBufferSize', limitBytes: Number(lim.maxBufferSize), usage };
    }
  }
  return rec;
}

function noteMemory(m) {
  if (typeof WebAssembly !== 'undefined' && m instanceof WebAssembly.Memory) state.memories.add(m);
}

// The memories among an instance's exports and the imports it was given (a threaded build imports its shared memory).
function noteInstance(instance, imports) {
  if (instance && instance.exports) for (const v of Object.values(instance.exports)) noteMemory(v);
  if (imports && typeof imports === 'object') {
    for (const mod of Object.values(imports)) if (mod && typeof mod === 'object') for (const v of Object.values(mod)) noteMemory(v);
  }
}

// Installs the ledger's hooks; call before onnxruntime-web is imported. Idempotent.
export function installLedger() {
  if (state.installed) return;
  state.installed = true;
  const G = globalThis;
  if (typeof G.GPUDevice === 'function' && typeof G.GPUBuffer === 'function') {
    const recs = new WeakMap(); // buffer -> its record
    const create = G.GPUDevice.prototype.createBuffer;
    G.GPUDevice.prototype.createBuffer = function createBuffer(descriptor) {
      const buffer = create.call(this, descriptor);
      const size = Number(buffer && buffer.size !== undefined ? buffer.size : descriptor && descriptor.size) || 0;
      const rec = made(this, size, descriptor ? descriptor.usage : null);
      recs.set(buffer, rec);
      if (gone) gone.register(buffer, rec, rec);
      return buffer;
    };
    const destroyBuffer = G.GPUBuffer.prototype.destroy;
    G.GPUBuffer.prototype.destroy = function destroy() {
      const rec = recs.get(this);
      if (rec) {
        letGo(rec);
        if (gone) gone.unregister(rec);
      }
      return destroyBuffer.call(this);
    };
    const destroyDevice = G.GPUDevice.prototype.destroy;
    G.GPUDevice.prototype.destroy = function destroy() {
      const d = devices.get(this);
      if (d && !d.destroyed) {
        d.destroyed = true;
        state.live -= d.live;
        d.live = 0;
        for (const rec of d.buffers) rec.gone = true;
        d.buffers.clear();
      }
      return destroyDevice.call(this);
    };
  }
  if (typeof WebAssembly !== 'undefined') {
    const instantiate = WebAssembly.instantiate;
    WebAssembly.instantiate = async function (source, imports) {
      const r = await instantiate.call(this, source, imports);
      noteInstance(r && r.instance ? r.instance : r, imports);
      return r;
    };
    if (typeof WebAssembly.instantiateStreaming === 'function') {
      const streaming = WebAssembly.instantiateStreaming;
      WebAssembly.instantiateStreaming = async function (source, imports) {
        const r = await streaming.call(this, source, imports);
        noteInstance(r.instance, imports);
        return r;
      };
    }
  }
}

// Whether the GPU side is watched (WebGPU present and hooked).
export function gpuWatched() {
  return state.installed && typeof globalThis.GPUDevice === 'function';
}

// Bytes of onnxruntime-web's WebAssembly memories now (a memory only grows: this is the high-water mark of its heap), or
// null when none was seen.
export function wasmBytes() {
  if (state.memories.size === 0) return null;
  let n = 0;
  for (const m of state.memories) n += m.buffer.byteLength;
  return n;
}

// Opens the window `key` (a case's session). A window opened while another is open overlaps it: both then mix two
// cases' buffers, and both say so (their GPU figures are not the case's alone).
export function openWindow(key) {
  const overlapped = state.windows.size > 0;
  for (const w of state.windows.values()) w.overlapped = true;
  state.windows.set(key, { baseline: state.live, peak: state.live, allocated: 0, largest: 0, buffers: 0, overLimit: null,
    overlapped, wasmBefore: wasmBytes() });
}

// The open window of `key`, or null.
export function windowOf(key) {
  return state.windows.get(key) || null;
}

// The first over-limit buffer request of any open window, or null.
export function overLimit() {
  for (const w of state.windows.values()) if (w.overLimit) return w.overLimit;
  return null;
}

// Closes the window `key` and returns its figures (null when it was not open): the GPU bytes live when it opened, at its
// peak and now (after the release), the bytes and number of buffers made in it and the largest, the device's limits, and
// the WebAssembly memory before and after.
export function closeWindow(key) {
  const w = state.windows.get(key);
  if (!w) return null;
  state.windows.delete(key);
  const gpu = gpuWatched() && !w.overlapped
    ? { baselineBytes: w.baseline, peakLiveBytes: w.peak, afterLiveBytes: state.live, allocatedBytes: w.allocated, largestBufferBytes: w.largest,
        buffers: w.buffers, limits: state.limits }
    : null;
  return { gpu, overlapped: w.overlapped, overLimit: w.overLimit, wasmBeforeBytes: w.wasmBefore, wasmAfterBytes: wasmBytes() };
}

// What the page holds now, for a leak check between re-creations: GPU bytes live and the WebAssembly memory.
export function holding() {
  return { gpuLiveBytes: gpuWatched() ? state.live : null, wasmBytes: wasmBytes() };
}

// Throws when an open window saw a buffer asked for above the device's limit: WebGPU answers such a request with an
// invalid buffer, so what the run returned was not computed, whatever the engine made of it; the queue's answer names the
// request (queue.mjs). Called where a result leaves the page.
export function refuseOverLimit() {
  if (overLimit()) throw new Error('the run returned outputs computed with a buffer the device refused');
}
