// Making an onnxruntime-web session, the one way every session of the page is made (a model's, an encoder's), so each
// is timed and placement-checked alike.
import { errorText } from './probe.mjs';
import { nodePlacement } from './placement.mjs';

// Creates a session of `bytes` with `sessionOptions`, timed. With `checkPlacement` it is created first with CPU fallback
// disabled: onnxruntime-web refuses a session that would place any node on the CPU EP. Refused and given `capture` (the
// page's console capture: the bridge asked for the nodes), it is made once more, untimed and released at once, with ORT's
// verbose log to list which nodes went to which EP; then it is made again as usual. Returns { session, sessionMs, placement } (placement null when not checked;
// `placement.nodes`: provider -> nodes, as ORT's "Node placements" log names them, or null when the log said nothing).
export async function createSession(ort, bytes, sessionOptions, checkPlacement, capture) {
  let t0 = performance.now();
  let session = null;
  let placement = null;
  if (checkPlacement === true) {
    try {
      session = await ort.InferenceSession.create(bytes, { ...sessionOptions, extra: { session: { disable_cpu_ep_fallback: '1' } } });
      placement = { onRequested: true, basis: 'created with session.disable_cpu_ep_fallback=1: onnxruntime-web placed every node on the requested EP' };
    } catch (e) {
      const text = errorText(e);
      if (!/fallback to CPU EP has been explicitly disabled/i.test(text)) throw e;
      placement = capture ? { onRequested: false, basis: text, nodes: await listPlacement(ort, bytes, sessionOptions, capture) }
        : { onRequested: false, basis: `${text} (which nodes was not asked for)`, nodes: null };
      t0 = performance.now();
    }
  }
  if (session === null) session = await ort.InferenceSession.create(bytes, sessionOptions);
  return { session, sessionMs: performance.now() - t0, placement };
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
