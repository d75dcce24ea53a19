// Making an onnxruntime-web session, the one way every session of the page is made (a model's, an encoder's), so each
// is timed and placement-checked alike.
import { errorText } from './probe.mjs';
import { nodePlacement } from './placement.mjs';

// Creates a session of `bytes` with `sessionOptions`, timed. With `checkPlacement` it is created first with CPU fallback
// disabled: onnxruntime-web refuses a session that would place any node on the CPU EP. Refused, it is made again as usual
// (the placement as `checkedPlacement` words it). Returns { session, sessionMs, placement } (placement null when not
// checked; `placement.nodes`: provider -> nodes, as ORT's "Node placements" log names them, or null when the log said nothing).
export async function createSession(ort, bytes, sessionOptions, checkPlacement, capture) {
  let t0 = performance.now();
  let session = null;
  let placement = null;
  if (checkPlacement === true) {
    try {
      session = await ort.InferenceSession.create(bytes, strict(sessionOptions));
      placement = { onRequested: true, basis: ON_REQUESTED };
    } catch (e) {
      placement = await refused(ort, bytes, sessionOptions, capture, e);
      t0 = performance.now();
    }
  }
  if (session === null) session = await ort.InferenceSession.create(bytes, sessionOptions);
  return { session, sessionMs: performance.now() - t0, placement };
}

// The placement check alone, for a session made and timed without it: a session made with CPU fallback disabled and
// released at once when onnxruntime-web makes it; refused, the refusal (and given `capture`, which nodes went where).
// The load defers the check to here on a page whose engine for the provider has not started (load.mjs), so the timed
// session's figure holds the engine's start as a bare page's does; the release job runs it once the case's memory window
// has closed, so its copy of the weights is no part of the case's figures.
export async function checkedPlacement(ort, bytes, sessionOptions, capture) {
  let s;
  try {
    s = await ort.InferenceSession.create(bytes, strict(sessionOptions));
  } catch (e) {
    const p = await refused(ort, bytes, sessionOptions, capture, e);
    return { ...p, basis: `${p.basis} ${AT_RELEASE}` };
  }
  await s.release();
  return { onRequested: true, basis: `${ON_REQUESTED} ${AT_RELEASE}` };
}

const AT_RELEASE = "(checked once the case's session was released: the page's first session on this provider was the timed one)";

const ON_REQUESTED = 'created with session.disable_cpu_ep_fallback=1: onnxruntime-web placed every node on the requested EP';

function strict(sessionOptions) {
  return { ...sessionOptions, extra: { session: { disable_cpu_ep_fallback: '1' } } };
}

// A strict session's failure: onnxruntime-web's refusal (a node would run on the CPU EP) is the placement, with which
// nodes when `capture` is given; any other failure is thrown.
async function refused(ort, bytes, sessionOptions, capture, e) {
  const text = errorText(e);
  if (!/fallback to CPU EP has been explicitly disabled/i.test(text)) throw e;
  return capture ? { onRequested: false, basis: text, nodes: await listPlacement(ort, bytes, sessionOptions, capture) }
    : { onRequested: false, basis: `${text} (which nodes was not asked for)`, nodes: null };
}

// Where each node of a session went, from ORT's own "Node placements" log: a session made with the verbose log severity,
// its console lines kept apart (capture.mjs), and released. Null when the log names no placement (a build without it).
async function listPlacement(ort, bytes, sessionOptions, capture) {
  const before = capture.placement;
  capture.placement = [];
  let lines;
  try {
    const s = await ort.InferenceSession.create(bytes, { ...sessionOptions, logSeverityLevel: 0, logVerbosityLevel: 0 });
    await s.release();
  } catch (e) {
    capture.placement = before;
    return null; // the listing is evidence only: the timed session's own creation says what failed
  } finally {
    lines = capture.placement || [];
    capture.placement = before;
  }
  return nodePlacement(lines);
}
