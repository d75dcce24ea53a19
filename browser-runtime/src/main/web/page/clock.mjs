// What the page knows about its own clock, measured rather than assumed (docs/scoring.md, "Floors and clocks"):
// the resolution of performance.now(), the round trip of an empty WebGPU readback (a browser that learns of a
// finished readback by polling puts a floor under every WebGPU figure) and the GPU's own time per inference from
// timestamp queries. Each runs outside the timed loop.

let resolutionMs = null;
const readbacks = new WeakMap(); // GPUDevice -> its measured empty round trip (ms)

// The smallest non-zero step between consecutive performance.now() readings, over up to 200 steps or 100 ms.
export function timerResolutionMs() {
  if (resolutionMs !== null) return resolutionMs;
  let best = Infinity;
  const start = performance.now();
  for (let i = 0; i < 200 && performance.now() - start < 100; i++) {
    const a = performance.now();
    let b = a;
    while (b === a) b = performance.now();
    best = Math.min(best, b - a);
  }
  resolutionMs = Number.isFinite(best) ? best : null;
  return resolutionMs;
}

// The median of five round trips of a 4-byte copy mapped back for reading: the least any WebGPU result can take to
// reach the page. Measured once per device.
export async function readbackMs(ort) {
  const device = ort.env.webgpu && await ort.env.webgpu.device;
  if (!device) return null;
  if (readbacks.has(device)) return readbacks.get(device);
  const src = device.createBuffer({ size: 4, usage: GPUBufferUsage.COPY_SRC | GPUBufferUsage.COPY_DST });
  const dst = device.createBuffer({ size: 4, usage: GPUBufferUsage.COPY_DST | GPUBufferUsage.MAP_READ });
  const times = [];
  try {
    for (let i = 0; i < 5; i++) {
      const t0 = performance.now();
      const enc = device.createCommandEncoder();
      enc.copyBufferToBuffer(src, 0, dst, 0, 4);
      device.queue.submit([enc.finish()]);
      await dst.mapAsync(GPUMapMode.READ);
      dst.unmap();
      times.push(performance.now() - t0);
    }
  } finally {
    src.destroy();
    dst.destroy();
  }
  times.sort((a, b) => a - b);
  readbacks.set(device, times[2]);
  return times[2];
}

// GPU time per inference: `runs` more runs with ORT's WebGPU profiling on, the kernels' timestamp-query durations
// summed and divided by the runs; null where the device gives no timestamps. The runs are not timed samples.
export async function gpuMsPerRun(ort, session, feeds, runs, dispose) {
  if (!ort.env.webgpu) return null;
  const kernels = [];
  ort.env.webgpu.profiling = { mode: 'default', ondata: (d) => { if (kernels.length < 200000) kernels.push(d); } };
  try {
    for (let i = 0; i < runs; i++) dispose(await session.run(feeds));
    const device = await ort.env.webgpu.device;
    if (device) await device.queue.onSubmittedWorkDone();
    await new Promise((r) => setTimeout(r, 50)); // the query read-backs resolve after the queue
  } finally {
    ort.env.webgpu.profiling = { mode: 'off' };
  }
  if (kernels.length === 0) return null;
  let ns = 0;
  for (const k of kernels) ns += Number(k.endTime) - Number(k.startTime);
  return ns / 1e6 / runs;
}
