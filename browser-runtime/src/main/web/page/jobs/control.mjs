// The messages the page acts on the moment they arrive, even while a job runs: none of them is a job.
import { Kind } from '../kinds.mjs';

export function welcome(page, msg) {
  page.ui.setState(`connected to the bridge as page ${msg.pageId}; waiting for jobs`, 'ok');
  page.ui.log(`joined as page ${msg.pageId}`);
}

export function pong(page, msg) {
  page.link.send({ type: Kind.PONG, job: msg.job, pageNow: performance.now() });
}

export function bridgeError(page, msg) {
  page.ui.log(`bridge reported ${msg.code}: ${msg.message}`);
  if (msg.code === 'forbidden' || msg.code === 'version-mismatch') {
    page.link.rejected = true;
    page.ui.setState(`rejected by the bridge: ${msg.message}`, 'err');
  }
}

// A fresh document in this tab, at the page URL the bridge gives (its own origin's page only): onnxruntime-web's
// WebAssembly state, its GPU device and everything a failed session left go with this one. After the jobs queued so far.
export function renew(page, msg) {
  let url;
  try { url = new URL(msg.url, location.href); } catch (e) { page.link.sendError(null, 'bad-frame', 'renew: not a URL'); return; }
  if (url.origin !== location.origin || url.pathname !== '/') { page.link.sendError(null, 'bad-frame', 'renew: only this page, on this origin'); return; }
  page.queue.after(() => {
    page.link.rejected = true; // no reconnecting from this document
    page.ui.setState('opening a fresh page…');
    location.replace(url.href);
  });
}
