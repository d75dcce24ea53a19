// The run job (docs/protocol.md, "run"): a single pass's runs, timed here around `await session.run(feeds)` so the
// bridge's overhead is not counted. A generation is a job of its own (generation.mjs).
import { Kind } from '../kinds.mjs';
import { PROTOCOL_VERSION, encodeFrame } from '../frames.mjs';
import { timerResolutionMs, readbackMs, gpuMsPerRun } from '../clock.mjs';
import { SettleLoop, TimedLoop } from '../settle.mjs';
import { stopsOnFloor } from '../floor.mjs';
import { feedsOf, disposeAll } from '../tensors.mjs';
import { sendResult } from '../transfer.mjs';
import { refuseOverLimit } from '../ledger.mjs';
import { sessionOf, heapSnapshot, warningsOf, progressOf } from './common.mjs';

// With "firstOnly" the session's first run alone (timed as firstMs; the bridge derives the deadline of the timed job from
// it); otherwise warm-ups, then timed runs. "sameInputs" reuses the inputs of the session's previous job, so large inputs
// cross once. Progress goes to the bridge at most once a second, between runs, never inside a timed one.
export async function runJob(page, msg, views) {
  const { ort } = page;
  const entry = sessionOf(page, msg);
  const feeds = feedsFor(page, entry, msg, views);
  const session = entry.session;
  let firstMs = null;
  if (entry.runs === 0) {
    const t0 = performance.now();
    const out = await session.run(feeds);
    await consumed(out);
    firstMs = performance.now() - t0;
    disposeAll(out);
    entry.runs++;
  }
  if (msg.firstOnly === true) {
    refuseOverLimit();
    page.ui.log(`job ${msg.job}: first run ${firstMs === null ? '(had run before)' : firstMs.toFixed(2) + ' ms'}`);
    page.link.sendFrame(encodeFrame({ v: PROTOCOL_VERSION, type: Kind.RESULT, job: msg.job, session: msg.session, firstMs, warmups: 0,
      samplesMs: [], memory: null, warnings: warningsOf(page) }, []));
    return;
  }
  const warmups = Math.max(0, msg.warmups | 0);
  const iterations = Math.max(1, msg.iterations | 0);
  // at least `iterations`, and on until minDurationMs of timed runs have passed (at most maxSamples)
  const timed = new TimedLoop(msg, iterations);
  const gpu = entry.ep === 'webgpu';
  const clock = { timerResolutionMs: timerResolutionMs(), readbackMs: gpu ? await readbackMs(ort) : null, gpuMs: null, warmupMs: null };
  const progress = progressOf(page, msg.job);
  // the warm-up phase, timed as a whole: at least `warmups`, and on until warmupDurationMs have passed; then on until the
  // runs stop getting faster, at most 10 s (settle.mjs: the rule of core/Settling.java). Each warm-up run is timed for
  // that alone, never kept as a sample.
  const warmupDurationMs = Math.max(0, Number(msg.warmupDurationMs) || 0);
  const settle = new SettleLoop(warmups, warmupDurationMs);
  // on a latency floor (floor.mjs) both loops stop once their runs show it (3 at least): more would only time the floor again
  const exact = warmupDurationMs <= 0 && timed.minDurationMs <= 0;
  let floorStopped = false;
  const tw = performance.now();
  while (settle.more(performance.now() - tw)) {
    if (stopsOnFloor(settle.runs, clock, exact)) { floorStopped = true; break; }
    const t0 = performance.now();
    const out = await session.run(feeds);
    await consumed(out);
    settle.add(performance.now() - t0);
    disposeAll(out);
    entry.runs++;
    progress('warmup', settle.runs.length, warmups);
  }
  const warmed = settle.runs.length;
  // on WebGPU one more warm-up reads the GPU's own time (timestamp queries), so that costs no timed run
  if (gpu && warmups > 0) clock.gpuMs = await gpuMsPerRun(ort, session, feeds, 1, disposeAll);
  clock.warmupMs = performance.now() - tw;
  const samplesMs = [];
  let last = null;
  let lastData = null;
  for (let i = 0; timed.more(); i++) {
    if (stopsOnFloor(samplesMs, clock, exact)) { floorStopped = true; break; }
    const t0 = performance.now();
    const out = await session.run(feeds);
    const data = await consumed(out);
    const dt = performance.now() - t0;
    samplesMs.push(dt);
    timed.add(dt);
    entry.runs++;
    if (last) disposeAll(last);
    last = out;
    lastData = data;
    progress('timed', i + 1, iterations);
  }
  const tensors = session.outputNames.map((name) => {
    const t = last[name];
    return { name, dtype: t.type, dims: t.dims, data: lastData[name] };
  });
  // a job of exact counts and no warm-up (the op sweep, a software adapter's verdict window) asks whether it works, not the
  // GPU's time: no extra profiled run (found when tried: on SwiftShader it was one more inference per case)
  if (gpu && warmups === 0 && !exact) clock.gpuMs = await gpuMsPerRun(ort, session, feeds, 1, disposeAll);
  const sorted = [...samplesMs].sort((a, b) => a - b);
  page.ui.log(`job ${msg.job}: first ${firstMs === null ? '-' : firstMs.toFixed(2)} ms, ${samplesMs.length} timed, median ${sorted[sorted.length >> 1].toFixed(3)} ms`);
  try {
    await sendResult(page.link, { v: PROTOCOL_VERSION, type: Kind.RESULT, job: msg.job, session: msg.session, firstMs, warmups: warmed,
      samplesMs, memory: heapSnapshot(true), warnings: warningsOf(page), warmupSettled: settle.settled,
      warmupTrend: Number.isFinite(settle.trend) ? settle.trend : null, floorStopped, ...clock }, tensors, msg.chunkBytes);
  } finally {
    disposeAll(last);
  }
}

// The job's feeds: the session's kept ones ("sameInputs"), or its own, kept for the next job of the session.
function feedsFor(page, entry, msg, views) {
  if (msg.sameInputs === true) {
    if (!entry.feeds) throw new Error(`session '${msg.session}' has no inputs from an earlier job to reuse`);
    return entry.feeds;
  }
  let feeds = feedsOf(page.ort, msg, views);
  // a captured graph replays on GPU buffers: the feeds are uploaded once, before any run, outside every timed one
  if (entry.graphCapture) feeds = onGpu(page.ort, feeds);
  entry.feeds = feeds;
  return feeds;
}

// The feeds in GPU buffers of their own (graph capture takes nothing else), each padded to a multiple of 16 bytes.
function onGpu(ort, feeds) {
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
