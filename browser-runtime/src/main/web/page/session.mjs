// Making an onnxruntime-web session, the one way every session of the page is made (a model's, an encoder's), so each
// is timed and placement-checked alike.
import { errorText } from './probe.mjs';

// Creates a session of `bytes` with `sessionOptions`, timed. With `checkPlacement` it is created first with CPU fallback
// disabled: onnxruntime-web refuses a session that would place any node on the CPU EP; then it is made again as usual and
// the refusal is the evidence. Returns { session, sessionMs, placement } (placement null when not checked).
export async function createSession(ort, bytes, sessionOptions, checkPlacement) {
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
      placement = { onRequested: false, basis: text };
      t0 = performance.now();
    }
  }
  if (session === null) session = await ort.InferenceSession.create(bytes, sessionOptions);
  return { session, sessionMs: performance.now() - t0, placement };
}
