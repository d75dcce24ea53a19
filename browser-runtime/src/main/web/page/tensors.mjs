// The page's tensors, made and let go one way everywhere: a job's feeds from its inputs, and outputs disposed (an output
// left on the GPU holds its buffer until then).
import { tensorView } from './frames.mjs';

// The typed-array views of a frame's tensors, in its header's order (no copy where aligned).
export function frameViews(frame) {
  return (frame.header.tensors || []).map((t) => tensorView(frame, t));
}

// The feeds of a run, profile or generation job: views into its frame, or the buffers its chunks filled.
export function feedsOf(ort, msg, views) {
  const feeds = {};
  (msg.tensors || []).forEach((t, i) => { feeds[t.name] = tensorOf(ort, t.dtype, views[i], t.shape); });
  return feeds;
}

// A float16 tensor's data is a Uint16Array, the bits as they came; onnxruntime-web 1.18-1.20 in a browser that has
// Float16Array refuse that ("A float16 tensor's data must be type of function Float16Array()", onnxruntime#23817, fixed in
// 1.21), so such a release gets a Float16Array over the same bytes.
function tensorOf(ort, dtype, data, shape) {
  try {
    return new ort.Tensor(dtype, data, shape);
  } catch (e) {
    if (dtype !== 'float16' || typeof Float16Array === 'undefined' || !(data instanceof Uint16Array)) throw e;
    return new ort.Tensor(dtype, new Float16Array(data.buffer, data.byteOffset, data.length), shape);
  }
}

// Lets a tensor go; a CPU tensor, or one already gone, is no error.
export function dispose(t) {
  try { if (t && typeof t.dispose === 'function') t.dispose(); } catch (e) { /* a cpu tensor */ }
}

// Lets every tensor of an object go (a run's outputs, a session's feeds).
export function disposeAll(tensors) {
  for (const k in tensors) dispose(tensors[k]);
}
