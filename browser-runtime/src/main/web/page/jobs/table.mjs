// What the page does with each message kind it receives: one row per kind (kinds.mjs), the one place a kind is routed.
// A row names the frames that may carry the kind (text, binary or both) and either
//   now(page, msg, frame): acted on the moment it arrives, even while a job runs; or
//   job(page, msg, inputs): queued, the jobs run one at a time in order (queue.mjs), a throw answered with `fails`.
// A job's `inputs` are what its binary frame's payload holds: 'model' (the model's bytes; null from a text frame) or
// 'tensors' (its inputs' typed arrays, in the frame or in chunks after it, transfer.mjs). A `session` job is skipped once
// its session's release has arrived; `status` is the page's state line from its arrival; `arrives` acts on arrival.
// A kind the table has no row for, or not for that frame, is answered `unknown-type` (inbox.mjs).
import { Kind } from '../kinds.mjs';
import { welcome, pong, renew, bridgeError } from './control.mjs';
import { probeJob } from './probe.mjs';
import { loadJob } from './load.mjs';
import { runJob } from './run.mjs';
import { generationJob } from './generation.mjs';
import { profileJob } from './profile.mjs';
import { releaseArrived, releaseJob } from './release.mjs';

export const TEXT = 'text';
export const BINARY = 'binary';
const BOTH = 'both';

const loading = (m) => `job ${m.job}: loading ${m.model && m.model.name ? m.model.name : 'a model'} on ${m.ep && m.ep.name}${m.ep && m.ep.deviceType ? '/' + m.ep.deviceType : ''}`;
const running = (m) => `job ${m.job}: running session ${m.session}`;
const profiling = (m) => `job ${m.job}: profiling session ${m.session}`;


const TABLE = Object.freeze({
  [Kind.WELCOME]: { frames: TEXT, now: welcome },
  [Kind.PING]: { frames: TEXT, now: pong },
  [Kind.RENEW]: { frames: TEXT, now: renew },
  [Kind.ERROR]: { frames: TEXT, now: bridgeError },
  [Kind.CHUNK]: { frames: BINARY, now: (page, msg, frame) => page.inbound.accept(frame) },
  [Kind.PROBE]: { frames: TEXT, job: probeJob, fails: 'job-failed' },
  [Kind.LOAD]: { frames: BOTH, job: loadJob, fails: 'load-failed', inputs: 'model', session: true, status: loading },
  [Kind.RUN]: { frames: BINARY, job: runJob, fails: 'run-failed', inputs: 'tensors', session: true, status: running },
  [Kind.GENERATE]: { frames: BINARY, job: generationJob, fails: 'run-failed', inputs: 'tensors', session: true, status: running },
  [Kind.PROFILE]: { frames: BINARY, job: profileJob, fails: 'run-failed', inputs: 'tensors', session: true, status: profiling },
  [Kind.RELEASE]: { frames: TEXT, job: releaseJob, fails: 'job-failed', arrives: releaseArrived },
});

// The row for a message of `type` arriving in a `frames` frame (TEXT or BINARY), or null when the page takes no such one.
export function rowOf(type, frames) {
  if (typeof type !== 'string' || !Object.hasOwn(TABLE, type)) return null;
  const row = TABLE[type];
  return row.frames === frames || row.frames === BOTH ? row : null;
}
