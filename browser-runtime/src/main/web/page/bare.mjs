// Benchmark baseline (bench/browser): the same model and inputs as a harness case, run by a page that only loops
// `await session.run(feeds)` — no WebSocket, no job protocol — so the harness's in-page figures can be compared.
// Result in window.benchResult and on the page.
import { decodeFrame, tensorView } from './frames.mjs';

const q = new URLSearchParams(location.search);
const out = document.getElementById('out');

// bench/ops: a list of models run one after the other in this one page, each fetched, created, run once, released:
// the bare rate of an op sweep, with nothing of the harness (no WebSocket, no job protocol, no checks).
async function sweep(ort, withToken) {
  const list = await (await fetch(withToken(q.get('list')))).json();
  const ep = q.get('ep') || 'wasm';
  const t0 = performance.now();
  let done = 0;
  const errors = [];
  for (const item of list) {
    try {
      const model = new Uint8Array(await (await fetch(withToken(item.model), { cache: 'no-store' })).arrayBuffer());
      const frame = decodeFrame(await (await fetch(withToken(item.inputs), { cache: 'no-store' })).arrayBuffer());
      const feeds = {};
      for (const t of frame.header.tensors) feeds[t.name] = new ort.Tensor(t.dtype, tensorView(frame, t), t.shape);
      const session = await ort.InferenceSession.create(model, { executionProviders: [ep] });
      const out = await session.run(feeds);
      for (const k of Object.keys(out)) { if (out[k].location === 'cpu') out[k].data; }
      await session.release();
      done++;
    } catch (e) {
      errors.push(`${item.model}: ${e.message}`);
    }
  }
  return { cases: list.length, done, errors: errors.slice(0, 5), errorCount: errors.length, ms: performance.now() - t0, ep };
}

async function main() {
  const ort = await import('./ort/ort.all.min.mjs');
  ort.env.wasm.wasmPaths = new URL('./ort/', location.href).href;
  const withToken = (u) => { const x = new URL(u, location.href); if (q.get('token')) x.searchParams.set('token', q.get('token')); return x; };
  if (q.get('list')) {
    window.benchResult = await sweep(ort, withToken);
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
