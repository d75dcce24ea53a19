// onnxruntime-web (and Emscripten's stderr) write to the console. What they write while a job runs is kept for the job's
// answer, so the bridge learns about nodes that were not placed on the requested execution provider; and the session
// profiler's trace (one event per console line when profiling ends) is kept for the profile job.
import { errorText } from './probe.mjs';

// Wraps the console's writers; returns the capture: set `warnings` (or `profile`, or `placement`) to an array to collect
// into it, back to null to stop. The job queue sets `warnings` around every job, the profile job `profile` around the
// profiler's end, session.mjs `placement` around a session made with ORT's verbose log to list where its nodes went.
export const PLACEMENT_LINES = 20000;
export function captureConsole(con = console) {
  const capture = { warnings: null, profile: null, placement: null };
  for (const level of ['warn', 'error', 'log', 'info']) {
    const orig = con[level].bind(con);
    con[level] = (...args) => {
      if (capture.warnings === null && capture.profile === null && capture.placement === null) { orig(...args); return; }
      // eslint-disable-next-line no-control-regex
      const text = args.map((a) => (typeof a === 'string' ? a : errorText(a))).join(' ').replace(/\x1b\[[0-9;]*m/g, '').trim();
      // ORT's verbose log of a session made to list its placement: kept (bounded), neither printed nor a warning
      if (capture.placement !== null) {
        if (capture.placement.length < PLACEMENT_LINES) capture.placement.push(text.length > 4000 ? text.slice(0, 4000) : text);
        return;
      }
      // ORT's session profiler (wasm build) prints its trace one event per line when profiling ends
      if (capture.profile !== null && text.startsWith('{"cat"')) {
        try { capture.profile.push(JSON.parse(text.replace(/,\s*$/, ''))); } catch (e) { /* not an event line */ }
        return;
      }
      orig(...args);
      if (capture.warnings === null) return;
      if (level === 'warn' || level === 'error' || /\[[WE]:onnxruntime/.test(text)) {
        if (capture.warnings.length < 200) capture.warnings.push(text.length > 2000 ? text.slice(0, 2000) : text);
      }
    };
  }
  return capture;
}
