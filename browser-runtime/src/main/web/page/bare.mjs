// Benchmark baseline (bench/browser): the same model and inputs as a harness case, run by a page that only loops
// `await session.run(feeds)` — no WebSocket, no job protocol — so the harness's in-page figures can be compared.
// Result in window.benchResult and on the page.
import { decodeFrame, tensorView } from './frames.mjs';
import { DEFAULT_ENTRY } from './bundle.mjs';

const q = new URLSearchParams(location.search);
const out = document.getElementById('out');

// bench/ops: a list of models run one after the other in this one page, each fetched, created, run once, released:
// the bare rate of an op sweep, with nothing of the harness (no WebSocket, no job protocol). A failed inference can leave
// onnxruntime-web broken for every later case (seen on WebGPU), so after one the loop does the least a plain loop must do
// for right verdicts, the same as the harness: it runs the list's check model on that provider and on wasm, and if an
// answer is not exact imports a fresh onnxruntime-web module (a new WebAssembly instance and GPU device).
async function sweep(importOrt, withToken) {
  const list = await (await fetch(withToken(q.get('list')))).json();
  const ep = q.get('ep') || 'wasm';
  let ort = await importOrt(0);
  const load = async (item) => {
    const model = new Uint8Array(await (await fetch(withToken(item.model), { cache: 'no-store' })).arrayBuffer());
    const frame = decodeFrame(await (await fetch(withToken(item.inputs), { cache: 'no-store' })).arrayBuffer());
    const feeds = {};
    for (const x of frame.header.tensors) feeds[x.name] = new ort.Tensor(x.dtype, tensorView(frame, x), x.shape);
    return { model, feeds };
  };
  const exact = async (provider) => {
    try {
      const { model, feeds } = await load(list.check);
      const session = await ort.InferenceSession.create(model, { executionProviders: [provider] });
      const out = await session.run(feeds);
      await session.release();
      const got = Array.from(out[Object.keys(out)[0]].data);
      return got.length === list.check.expected.length && got.every((v, i) => v === list.check.expected[i]);
    } catch (e) {
      return false;
    }
  };
  try { // the first case once, as the harness's lane does before its cases: onnxruntime-web's engine started
    const { model, feeds } = await load(list.cases[0]);
    const session = await ort.InferenceSession.create(model, { executionProviders: [ep] });
    await session.run(feeds);
    await session.release();
  } catch (e) { /* judged in the loop */ }
  const t0 = performance.now();
  let done = 0;
  let fresh = 0;
  let checks = 0;
  const errors = [];
  const ms = { fetch: 0, create: 0, run: 0, release: 0, recover: 0 };
  for (const item of list.cases) {
    let phase = 'fetch';
    let t = performance.now();
    try {
      const { model, feeds } = await load(item);
      ms.fetch += performance.now() - t; t = performance.now(); phase = 'create';
      const session = await ort.InferenceSession.create(model, { executionProviders: [ep] });
      ms.create += performance.now() - t; t = performance.now(); phase = 'run';
      const out = await session.run(feeds);
      for (const k of Object.keys(out)) { if (out[k].location === 'cpu') out[k].data; }
      ms.run += performance.now() - t; t = performance.now(); phase = 'release';
      await session.release();
      ms.release += performance.now() - t;
      done++;
    } catch (e) {
      errors.push(`${item.name}: ${e.message}`);
      if (phase === 'run') {
        t = performance.now();
        checks++;
        if (!(await exact(ep)) || (ep !== 'wasm' && !(await exact('wasm')))) ort = await importOrt(++fresh);
        ms.recover += performance.now() - t;
      }
    }
  }
  return { cases: list.cases.length, done, errors, errorCount: errors.length, checks, fresh, phaseMs: ms, ms: performance.now() - t0, ep };
}

// bench/generation: greedy decoding with the KV cache fed back, as a plain page would write it (the transformers.js way):
// no WebSocket, no job protocol, none of the harness's code. Each step timed until its token is known.
async function bareGenerate(ort, withToken) {
  const spec = JSON.parse(q.get('generate'));
  const model = new Uint8Array(await (await fetch(withToken(q.get('model')))).arrayBuffer());
  const frame = decodeFrame(await (await fetch(withToken(q.get('inputs')))).arrayBuffer());
  const prompt = tensorView(frame, frame.header.tensors[0]);
  const ep = q.get('ep') || 'wasm';
  if (Number(q.get('threads')) > 0) ort.env.wasm.numThreads = Number(q.get('threads')); // as the harness's page ran
  const t0 = performance.now();
  const session = await ort.InferenceSession.create(model, { executionProviders: [ep] });
  const sessionMs = performance.now() - t0;
  const warmups = Number(q.get('warmups') || 1);
  const iterations = Number(q.get('iterations') || 10);
  const generations = [];
  for (let g = 0; g < warmups + iterations; g++) {
    let past = {};
    for (const c of spec.cache) past[c.past] = new ort.Tensor('float32', new Float32Array(0), [1, spec.kvHeads, 0, spec.headDim]);
    let ids = prompt;
    let pos = 0;
    const steps = [];
    const tokens = [];
    let t = performance.now();
    for (let s = 0; s < spec.newTokens; s++) {
      const total = pos + ids.length;
      const positions = new BigInt64Array(ids.length);
      for (let i = 0; i < ids.length; i++) positions[i] = BigInt(pos + i);
      const feeds = { input_ids: new ort.Tensor('int64', ids, [1, ids.length]),
        attention_mask: new ort.Tensor('int64', new BigInt64Array(total).fill(1n), [1, total]),
        position_ids: new ort.Tensor('int64', positions, [1, ids.length]), ...past };
      const out = await session.run(feeds);
      const vocab = out.logits.dims[2];
      const d = out.logits.data;
      const base = (ids.length - 1) * vocab;
      let best = 0;
      for (let v = 1; v < vocab; v++) if (d[base + v] > d[base + best]) best = v;
      const now = performance.now();
      steps.push(now - t);
      t = now;
      tokens.push(best);
      past = {};
      for (const c of spec.cache) past[c.past] = out[c.present];
      ids = BigInt64Array.of(BigInt(best));
      pos = total;
    }
    if (g >= warmups) generations.push({ steps, tokens });
  }
  await session.release();
  return { sessionMs, generations, ep };
}

async function main() {
  const importOrt = async (n) => {
    // the bundle of the engine measured (?ortEntry=ort.webgpu.min.mjs: the native WebGPU EP), as the harness's page takes it
    const entry = ['ort.all.min.mjs', 'ort.webgpu.min.mjs', 'ort.jspi.min.mjs'].includes(q.get('ortEntry')) ? q.get('ortEntry') : DEFAULT_ENTRY;
    const o = await import(`./ort/${entry}${n ? '?fresh=' + n : ''}`);
    o.env.wasm.wasmPaths = new URL('./ort/', location.href).href;
    return o;
  };
  const ort = await importOrt(0);
  const withToken = (u) => { const x = new URL(u, location.href); if (q.get('token')) x.searchParams.set('token', q.get('token')); return x; };
  if (q.get('generate')) {
    window.benchResult = await bareGenerate(ort, withToken);
    out.textContent = JSON.stringify({ generations: window.benchResult.generations.length });
    return;
  }
  if (q.get('list')) {
    window.benchResult = await sweep(importOrt, withToken);
    out.textContent = JSON.stringify(window.benchResult);
    return;
  }
  const model = new Uint8Array(await (await fetch(withToken(q.get('model')))).arrayBuffer());
  const frame = decodeFrame(await (await fetch(withToken(q.get('inputs')))).arrayBuffer());
  const feeds = {};
  for (const t of frame.header.tensors) feeds[t.name] = new ort.Tensor(t.dtype, tensorView(frame, t), t.shape);
  const ep = q.get('ep') || 'wasm';
  const t0 = performance.now();
  const session = await ort.InferenceSession.create(model, { executionProviders: [ep] });
  const sessionMs = performance.now() - t0;
  const warmups = Number(q.get('warmups') || 5);
  const iterations = Number(q.get('iterations') || 100);
  for (let i = 0; i < warmups; i++) await session.run(feeds);
  const samples = [];
  for (let i = 0; i < iterations; i++) {
    const s = performance.now();
    await session.run(feeds);
    samples.push(performance.now() - s);
  }
  await session.release();
  window.benchResult = { sessionMs, samples, ep };
  out.textContent = JSON.stringify(window.benchResult);
}

main().catch((e) => { window.benchResult = { error: `${e.name}: ${e.message}` }; out.textContent = window.benchResult.error; });
