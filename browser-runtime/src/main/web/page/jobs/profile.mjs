// The profile job (docs/protocol.md, "profile"): per-op times of a session created with enableProfiling. One untimed
// run, then `iterations` profiled runs whose own wall times are reported too (so profiling's overhead can be stated),
// then the profiler's events. On webgpu the GPU kernel times come from timestamp queries (env.webgpu.profiling), read
// back after the GPU queue is done.
import { Kind } from '../kinds.mjs';
import { feedsOf, disposeAll } from '../tensors.mjs';
import { sessionOf } from './common.mjs';

export async function profileJob(page, msg, views) {
  const { ort } = page;
  const entry = sessionOf(page, msg);
  const feeds = feedsOf(ort, msg, views);
  const iterations = Math.max(1, msg.iterations | 0);
  const session = entry.session;
  disposeAll(await session.run(feeds));
  const kernels = [];
  const gpu = entry.ep === 'webgpu' && ort.env.webgpu;
  if (gpu) ort.env.webgpu.profiling = { mode: 'default', ondata: (d) => { if (kernels.length < 200000) kernels.push(d); } };
  const samplesMs = [];
  try {
    for (let i = 0; i < iterations; i++) {
      const t0 = performance.now();
      const out = await session.run(feeds);
      samplesMs.push(performance.now() - t0);
      disposeAll(out);
    }
    if (gpu) {
      const device = await ort.env.webgpu.device;
      if (device) await device.queue.onSubmittedWorkDone();
      await new Promise((r) => setTimeout(r, 50)); // the query read-backs resolve after the queue
    }
  } finally {
    if (gpu) ort.env.webgpu.profiling = { mode: 'off' };
  }
  const events = await profilerEvents(page, session);
  // only the node events, compactly: name, op, provider, duration (µs)
  const nodes = events.filter((e) => e.cat === 'Node' && typeof e.name === 'string' && e.name.endsWith('_kernel_time'))
    .map((e) => ({ node: e.name.slice(0, -'_kernel_time'.length), op: e.args && e.args.op_name, provider: e.args && e.args.provider, us: e.dur, ts: e.ts }));
  const runs = events.filter((e) => e.cat === 'Session' && e.name === 'model_run').map((e) => ({ ts: e.ts, us: e.dur }));
  const gpuKernels = kernels.map((k) => ({ node: k.kernelName, op: k.kernelType, program: k.programName, ns: k.endTime - k.startTime }));
  page.ui.log(`job ${msg.job}: profiled ${iterations} runs: ${nodes.length} node events, ${gpuKernels.length} GPU kernels`);
  // `nodes` and `runs` cover every run of the session (the untimed one first); `gpuKernels` only the profiled ones
  page.link.send({ type: Kind.PROFILED, job: msg.job, session: msg.session, iterations, samplesMs, nodes, runs, gpuKernels,
    timestampQuery: gpu ? kernels.length > 0 : null });
}

// Ends the session's profiler, whose trace onnxruntime-web prints one event per console line (kept by capture.mjs).
async function profilerEvents(page, session) {
  page.capture.profile = [];
  try {
    session.endProfiling();
    await new Promise((r) => setTimeout(r, 0));
    return page.capture.profile;
  } finally {
    page.capture.profile = null;
  }
}
