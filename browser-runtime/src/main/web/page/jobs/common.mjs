// What the job kinds take from the page, written once.
import { Kind } from '../kinds.mjs';

// The session a job names; a job for a session the page does not hold fails (answered as its kind's failure).
export function sessionOf(page, msg) {
  const entry = page.sessions.get(msg.session);
  if (!entry) throw new Error(`no session '${msg.session}' in this page (load it first)`);
  return entry;
}

// The JS heap where the browser tells it (performance.memory), else null: used only, or with the total too.
export function heapSnapshot(withTotal) {
  const m = performance.memory;
  if (!m) return null;
  return withTotal ? { usedJSHeapSize: m.usedJSHeapSize, totalJSHeapSize: m.totalJSHeapSize } : { usedJSHeapSize: m.usedJSHeapSize };
}

// onnxruntime-web's warnings while the job ran (capture.mjs).
export function warningsOf(page) {
  return page.capture.warnings || [];
}

// A job's progress reporter: at most one message a second, sent between runs (never inside a timed one).
export function progressOf(page, job) {
  let lastProgress = performance.now();
  return (phase, done, total) => {
    const now = performance.now();
    if (now - lastProgress < 1000) return;
    lastProgress = now;
    page.link.send({ type: Kind.PROGRESS, job, phase, done, total });
  };
}
