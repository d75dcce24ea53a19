// The generation job: generate.mjs's decode loop on the session the job names, given the page's ways out as its ports.
// A `generate` message (docs/protocol.md), routed here by table.mjs; answered with a `result` as a run is.
import { Kind } from '../kinds.mjs';
import { PROTOCOL_VERSION } from '../frames.mjs';
import { timerResolutionMs, readbackMs } from '../clock.mjs';
import { generateJob } from '../generate.mjs';
import { feedsOf } from '../tensors.mjs';
import { sendResult } from '../transfer.mjs';
import { sessionOf, heapSnapshot, warningsOf, progressOf } from './common.mjs';

export async function generationJob(page, msg, views) {
  const { ort } = page;
  const entry = sessionOf(page, msg);
  const gpu = entry.ep === 'webgpu';
  const clock = { timerResolutionMs: timerResolutionMs(), readbackMs: gpu ? await readbackMs(ort) : null };
  await generateJob(ort, entry, msg, feedsOf(ort, msg, views), {
    log: page.ui.log,
    clock,
    token: page.token,
    progress: progressOf(page, msg.job),
    sendResult: (fields, tensors) => sendResult(page.link, { v: PROTOCOL_VERSION, type: Kind.RESULT, job: msg.job, session: msg.session,
      memory: heapSnapshot(false), warnings: warningsOf(page), ...clock, ...fields }, tensors, msg.chunkBytes),
  });
}
