// A generation in the page (docs/protocol.md, "generate"): greedy decoding with the KV cache fed back, the same loop as the
// native side's NativeGeneration. Each step is timed from the moment its feeds are made to the moment its token is known
// (logits read, argmax done): what a user of transformers.js or web-llm waits for.
import { createSession } from './session.mjs';
import { SettleLoop, TimedLoop } from './settle.mjs';
import { stopsOnFloor } from './floor.mjs';
import { dispose } from './tensors.mjs';
import { bridgeUrl } from './link.mjs';

// The index of the largest value of row `s` of `rows` (width `width`), the first on a tie (as the native loop takes).
export function argmax(rows, s, width) {
  let best = 0;
  const base = s * width;
  for (let v = 1; v < width; v++) if (rows[base + v] > rows[base + best]) best = v;
  return best;
}

function emptyCache(ort, spec) {
  const past = {};
  for (const c of spec.cache) {
    const data = spec.cacheType === 'float16' ? new Uint16Array(0) : new Float32Array(0);
    past[c.past] = new ort.Tensor(spec.cacheType || 'float32', data, [1, spec.kvHeads, 0, spec.headDim]);
  }
  return past;
}

// One generation of spec.newTokens tokens after `prompt` (BigInt64Array). With `forced` (BigInt64Array) the token fed after
// each step is forced's, not the argmax (the teacher-forced pass); with `keepLogits` each step's last-position logits are
// kept. An encoder-decoder's `encoder` ({ session, features }) runs first, inside the first step's time (the first token
// waits for it), its states fed to every step beside use_cache_branch. Returns { tokens, stepsMs, logits, vocab, cacheBytes,
// encoderMs }.
export async function generateOnce(ort, session, spec, prompt, forced, keepLogits, encoder) {
  const n = spec.newTokens;
  const tokens = new BigInt64Array(n);
  const stepsMs = new Array(n);
  let logitsKept = null;
  let vocab = -1;
  let past = emptyCache(ort, spec);
  let ids = prompt;
  let pos = 0;
  let cacheBytes = null; // unknown until a step gives the cache
  let encoderMs = null;
  let hidden = null;
  let t = performance.now();
  try {
    if (encoder) {
      const eo = await encoder.session.run({ [spec.encoder.features]: encoder.features });
      hidden = eo[spec.encoder.output];
      if (!hidden) throw new Error(`the encoder has no output '${spec.encoder.output}'`);
      for (const [k, v] of Object.entries(eo)) if (k !== spec.encoder.output) dispose(v);
      encoderMs = performance.now() - t;
    }
    for (let s = 0; s < n; s++) {
      const len = ids.length;
      const total = pos + len;
      const feeds = { [spec.inputIds]: new ort.Tensor('int64', ids, [1, len]) };
      if (spec.attentionMask) feeds[spec.attentionMask] = new ort.Tensor('int64', new BigInt64Array(total).fill(1n), [1, total]);
      if (spec.positionIds) {
        const p = new BigInt64Array(len);
        for (let i = 0; i < len; i++) p[i] = BigInt(pos + i);
        feeds[spec.positionIds] = new ort.Tensor('int64', p, [1, len]);
      }
      for (const c of spec.cache) feeds[c.past] = past[c.past];
      if (hidden && spec.encoderHidden) feeds[spec.encoderHidden] = hidden;
      if (spec.useCacheBranch) feeds[spec.useCacheBranch] = new ort.Tensor('bool', Uint8Array.of(pos > 0 ? 1 : 0), [1]);
      const out = await session.run(feeds);
      const logits = out[spec.logits];
      vocab = logits.dims[logits.dims.length - 1];
      const data = logits.location && logits.location !== 'cpu' ? await logits.getData() : logits.data;
      const row = data.subarray((len - 1) * vocab, len * vocab);
      const next = argmax(row, 0, vocab);
      const now = performance.now();
      stepsMs[s] = now - t;
      t = now;
      tokens[s] = BigInt(next);
      if (keepLogits) {
        if (logitsKept === null) logitsKept = new Float32Array(n * vocab);
        logitsKept.set(row, s * vocab);
      }
      dispose(logits);
      for (const c of spec.cache) {
        dispose(past[c.past]);
        past[c.past] = out[c.present];
      }
      cacheBytes = spec.cache.reduce((a, c) => a + past[c.past].dims.reduce((x, y) => x * y, 1) * (spec.cacheType === 'float16' ? 2 : 4), 0);
      ids = BigInt64Array.of(forced ? forced[s] : BigInt(next));
      pos = total;
    }
  } finally {
    for (const c of spec.cache) dispose(past[c.past]);
    dispose(hidden);
  }
  return { tokens, stepsMs, logits: logitsKept, vocab, cacheBytes, encoderMs };
}

// An encoder-decoder's encoder session, made beside the decoder's with its options (not its output placement or graph
// capture: those name the decoder's values), from the model the bridge serves at spec.encoder.url; timed and
// placement-checked as the decoder's was (session.mjs), so its load counts as natively, where both sessions are made
// inside the load. Returns { session, loaded } with `loaded` the figures the result carries as its "encoder".
async function encoderSession(ort, entry, spec, io) {
  const url = bridgeUrl(spec.encoder.url, io.token);
  const t0 = performance.now();
  const resp = await fetch(url, { cache: 'no-store' });
  if (!resp.ok) throw new Error(`fetching the encoder ${spec.encoder.name} returned HTTP ${resp.status}`);
  const bytes = new Uint8Array(await resp.arrayBuffer());
  const fetchMs = performance.now() - t0;
  const opts = { ...(entry.sessionOptions || {}) };
  delete opts.preferredOutputLocation;
  delete opts.enableGraphCapture;
  delete opts.freeDimensionOverrides;
  const { session, sessionMs, placement } = await createSession(ort, bytes, opts, entry.checkPlacement);
  io.log(`encoder ${spec.encoder.name} ready in ${sessionMs.toFixed(1)} ms`);
  return { session, loaded: { session: spec.encoder.name, sessionMs, fetchMs, inputNames: session.inputNames,
    outputNames: session.outputNames, placement } };
}

// A generation job: the cold generation (the session's first), `warmups` more, `iterations` timed ones, then the
// teacher-forced pass fed spec.teacher (the reference's tokens; the cold generation's when absent). Answers with every
// generation's tokens ([generations, newTokens] int64, the cold one first) and the teacher-forced logits
// ([newTokens, vocab] float32); the figures go in the result's "decode". `io` gives the page's ways out and the page's
// clock (io.clock: timerResolutionMs, readbackMs). On a latency floor (floor.mjs: the steps after each generation's first,
// the cold one's included, sit on a polled readback) the warm-ups stop and the timed generations stop after the first:
// every generation that ran is still answered for the verdict.
export async function generateJob(ort, entry, msg, feeds, io) {
  const spec = msg.generation;
  const promptTensor = feeds[spec.inputIds];
  if (!promptTensor) throw new Error(`a generation job without its prompt '${spec.inputIds}'`);
  const prompt = promptTensor.data;
  let encoder = null;
  if (spec.encoder) {
    const features = feeds[spec.encoder.features];
    if (!features) throw new Error(`a speech-to-text job without its '${spec.encoder.features}'`);
    const made = await encoderSession(ort, entry, spec, io);
    encoder = { session: made.session, features, loaded: made.loaded };
  }
  try {
    await generateAll(ort, entry, msg, spec, prompt, encoder, io);
  } finally {
    if (encoder) await encoder.session.release();
  }
}

async function generateAll(ort, entry, msg, spec, prompt, encoder, io) {
  const session = entry.session;
  const rows = [];
  const cold = await generateOnce(ort, session, spec, prompt, null, false, encoder);
  rows.push(cold.tokens);
  entry.runs++;
  const iterations = Math.max(1, msg.iterations | 0);
  // the warm-up generations: the count, then for the least duration and until whole generations stop getting faster (the
  // rule of settle.mjs, each generation one run), as a single pass warms up
  const warmupDurationMs = Math.max(0, Number(msg.warmupDurationMs) || 0);
  const settle = new SettleLoop(Math.max(0, msg.warmups | 0), warmupDurationMs);
  const exact = warmupDurationMs <= 0 && !(Number(msg.minDurationMs) > 0);
  const waits = cold.stepsMs.slice(1); // each step after a generation's first waits for one token
  let floorStopped = false;
  const tw = performance.now();
  while (settle.more(performance.now() - tw)) {
    if (stopsOnFloor(waits, io.clock, exact)) { floorStopped = true; break; }
    const g = await generateOnce(ort, session, spec, prompt, null, false, encoder);
    waits.push(...g.stepsMs.slice(1));
    rows.push(g.tokens);
    settle.add(g.stepsMs.reduce((a, b) => a + b, 0));
    io.progress('warmup', settle.runs.length, settle.warmups);
  }
  const warmups = settle.runs.length;
  const warmupMs = performance.now() - tw;
  const stepsMs = [];
  const samplesMs = [];
  const encoderMs = [];
  let cacheBytes = cold.cacheBytes;
  // at least `iterations`, and on until minDurationMs of timed generations have passed (at most maxSamples), as a single
  // pass's timed runs: ten generations of a few milliseconds are too short a window to hold one figure
  const timed = new TimedLoop(msg, iterations);
  const timedWaits = [];
  for (let i = 0; timed.more(); i++) {
    if (stopsOnFloor(timedWaits, io.clock, exact)) { floorStopped = true; break; }
    const g = await generateOnce(ort, session, spec, prompt, null, false, encoder);
    timedWaits.push(...g.stepsMs.slice(1));
    rows.push(g.tokens);
    if (g.encoderMs !== null) encoderMs.push(g.encoderMs);
    stepsMs.push(g.stepsMs);
    samplesMs.push(g.stepsMs.reduce((a, b) => a + b, 0));
    timed.add(samplesMs[samplesMs.length - 1]);
    cacheBytes = g.cacheBytes;
    io.progress('timed', i + 1, iterations);
  }
  const forced = Array.isArray(spec.teacher) ? BigInt64Array.from(spec.teacher.map((v) => BigInt(v))) : cold.tokens;
  const tt = performance.now();
  const teacher = await generateOnce(ort, session, spec, prompt, forced, true, encoder);
  const teacherMs = performance.now() - tt;
  const n = spec.newTokens;
  const all = new BigInt64Array(rows.length * n);
  rows.forEach((r, g) => all.set(r, g * n));
  const tensors = [
    { name: 'tokens', dtype: 'int64', dims: [rows.length, n], data: all },
    { name: 'teacher_logits', dtype: 'float32', dims: [n, teacher.vocab], data: teacher.logits },
  ];
  const firstMs = cold.stepsMs.reduce((a, b) => a + b, 0);
  io.log(`job ${msg.job}: ${rows.length} generations of ${n} tokens, cold ${firstMs.toFixed(1)} ms, TTFT ${stepsMs.length ? stepsMs[0][0].toFixed(2) : '-'} ms`);
  await io.sendResult({ firstMs, warmups, warmupMs, warmupSettled: settle.settled, floorStopped,
    warmupTrend: Number.isFinite(settle.trend) ? settle.trend : null, samplesMs, encoder: encoder ? encoder.loaded : null,
    decode: { promptTokens: prompt.length, stepsMs, coldStepsMs: cold.stepsMs, kvCacheBytes: cacheBytes, encoderMs, teacherMs } }, tensors);
}
