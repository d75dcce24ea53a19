// The browser capability probe: what this browser offers for WebGPU, WebNN and WASM, with the evidence.
// Every field is read from the browser itself; where something is absent the exact reason is recorded.

// Smallest modules using a SIMD op (v128) and a shared-memory atomic, as in wasm-feature-detect.
const SIMD_MODULE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 5, 1, 96, 0, 1, 123, 3, 2, 1, 0, 10, 10, 1, 8, 0, 65, 0, 253, 15, 253, 98, 11]);
const THREADS_MODULE = new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0, 1, 4, 1, 96, 0, 0, 3, 2, 1, 0, 5, 4, 1, 3, 1, 1, 10, 11, 1, 9, 0, 65, 0, 254, 16, 2, 0, 26, 11]);

const KEY_LIMITS = ['maxBufferSize', 'maxStorageBufferBindingSize', 'maxComputeWorkgroupStorageSize',
  'maxComputeInvocationsPerWorkgroup', 'maxComputeWorkgroupSizeX', 'maxStorageBuffersPerShaderStage'];

export function errorText(e) {
  if (e === null || e === undefined) return String(e);
  if (typeof e === 'string') return e;
  const name = e.name || 'Error';
  return e.message !== undefined ? `${name}: ${e.message}` : String(e);
}

function probeWasm() {
  const out = { present: typeof WebAssembly === 'object' };
  if (!out.present) return out;
  try { out.simd = WebAssembly.validate(SIMD_MODULE); } catch (e) { out.simd = false; out.simdError = errorText(e); }
  out.sharedArrayBuffer = typeof SharedArrayBuffer !== 'undefined';
  // JSPI (WebAssembly.Suspending): what onnxruntime-web's JSPI builds need; WebKit and Firefox ESR have none
  out.jspi = typeof WebAssembly.Suspending === 'function';
  try {
    out.threads = out.sharedArrayBuffer && self.crossOriginIsolated === true && WebAssembly.validate(THREADS_MODULE);
  } catch (e) { out.threads = false; out.threadsError = errorText(e); }
  return out;
}

async function probeWebGpu() {
  if (!('gpu' in navigator) || !navigator.gpu) {
    // WebKitGTK with its WebGPU feature on but no backend built in has navigator.gpu null, not undefined
    return { present: false, adapterFound: false, evidence: `navigator.gpu ${navigator.gpu === null ? 'is null' : 'undefined'}` };
  }
  let adapter;
  try {
    adapter = await navigator.gpu.requestAdapter();
  } catch (e) {
    return { present: true, adapterFound: false, evidence: `navigator.gpu present, requestAdapter() threw ${errorText(e)}` };
  }
  if (!adapter) {
    return { present: true, adapterFound: false, evidence: 'navigator.gpu present, requestAdapter() returned null' };
  }
  let info = adapter.info;
  if (!info && typeof adapter.requestAdapterInfo === 'function') {
    try { info = await adapter.requestAdapterInfo(); } catch (e) { info = undefined; }
  }
  info = info || {};
  const limits = {};
  for (const k of KEY_LIMITS) {
    if (adapter.limits && adapter.limits[k] !== undefined) limits[k] = Number(adapter.limits[k]);
  }
  const fallback = info.isFallbackAdapter !== undefined ? info.isFallbackAdapter
    : (adapter.isFallbackAdapter !== undefined ? adapter.isFallbackAdapter : null);
  return {
    present: true,
    adapterFound: true,
    vendor: info.vendor || '',
    architecture: info.architecture || '',
    device: info.device || '',
    description: info.description || '',
    isFallbackAdapter: fallback,
    features: adapter.features ? [...adapter.features].sort() : [],
    limits,
    evidence: 'requestAdapter() returned an adapter',
  };
}

function summarizeOpLimits(limits) {
  if (!limits || typeof limits !== 'object') return null;
  const ops = [];
  for (const k in limits) ops.push(k);
  const out = { entries: ops.length };
  if (limits.input && limits.input.dataTypes) out.inputDataTypes = [...limits.input.dataTypes];
  if (limits.preferredInputLayout) out.preferredInputLayout = limits.preferredInputLayout;
  return out;
}

async function tryContext(options) {
  const entry = { options };
  try {
    const ctx = await navigator.ml.createContext(options);
    entry.ok = true;
    if (typeof ctx.opSupportLimits === 'function') {
      try { entry.opSupportLimits = summarizeOpLimits(ctx.opSupportLimits()); } catch (e) { entry.opSupportLimitsError = errorText(e); }
    }
    if (typeof ctx.destroy === 'function') { try { ctx.destroy(); } catch (e) { /* already gone */ } }
  } catch (e) {
    entry.ok = false;
    entry.error = errorText(e);
  }
  return entry;
}

async function probeWebNn() {
  if (!('ml' in navigator) || !navigator.ml) {
    return { present: false, contexts: [], evidence: 'navigator.ml undefined' };
  }
  if (typeof navigator.ml.createContext !== 'function') {
    return { present: true, contexts: [], evidence: 'navigator.ml present without createContext()' };
  }
  const contexts = [];
  for (const deviceType of ['cpu', 'gpu', 'npu']) contexts.push(await tryContext({ deviceType }));
  for (const powerPreference of ['default', 'high-performance', 'low-power']) contexts.push(await tryContext({ powerPreference }));
  return { present: true, contexts, evidence: 'navigator.ml present' };
}

/** Runs every probe; never throws (a failing probe records its error). */
export async function probeBrowser() {
  const out = {
    userAgent: navigator.userAgent,
    platform: navigator.platform || '',
    hardwareConcurrency: navigator.hardwareConcurrency || 0,
    crossOriginIsolated: self.crossOriginIsolated === true,
    deviceMemory: navigator.deviceMemory || null,
    secureContext: self.isSecureContext === true,
  };
  if (navigator.userAgentData) out.uaPlatform = navigator.userAgentData.platform || '';
  if (navigator.userAgentData && typeof navigator.userAgentData.getHighEntropyValues === 'function') {
    try {
      const hv = await navigator.userAgentData.getHighEntropyValues(['fullVersionList', 'platformVersion', 'architecture']);
      out.brands = (hv.fullVersionList || []).map((b) => ({ brand: b.brand, version: b.version }));
      out.architecture = hv.architecture || '';
      out.platformVersion = hv.platformVersion || '';
    } catch (e) { out.brandsError = errorText(e); }
  }
  out.wasm = probeWasm();
  try { out.webgpu = await probeWebGpu(); } catch (e) { out.webgpu = { present: false, adapterFound: false, evidence: `probe failed: ${errorText(e)}` }; }
  try { out.webnn = await probeWebNn(); } catch (e) { out.webnn = { present: false, contexts: [], evidence: `probe failed: ${errorText(e)}` }; }
  return out;
}
