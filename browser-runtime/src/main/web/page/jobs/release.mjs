// The release job (docs/protocol.md, "release"): lets a session go and answers with the heap after it (the re-creation
// leak check reads it) and the case's memory window (ledger.mjs), closed once the session is gone; then, for a session
// whose placement check waited for its release (load.mjs), the check, outside the window.
// Its arrival already acts: the session's jobs still queued are skipped (queue.mjs).
import { Kind } from '../kinds.mjs';
import { disposeAll } from '../tensors.mjs';
import { heapSnapshot } from './common.mjs';
import { closeWindow, holding } from '../ledger.mjs';
import { checkedPlacement } from '../session.mjs';
import { bridgeUrl } from '../link.mjs';
import { errorText } from '../probe.mjs';

export function releaseArrived(page, msg) {
  page.queue.releasing.add(msg.session);
}

export async function releaseJob(page, msg) {
  page.queue.releasing.delete(msg.session);
  const entry = page.sessions.get(msg.session);
  if (entry) {
    page.sessions.delete(msg.session);
    await entry.session.release();
    // the GPU buffers a captured graph was fed
    if (entry.graphCapture && entry.feeds) disposeAll(entry.feeds);
  }
  const memory = heapSnapshot(false);
  const ledger = closeWindow(msg.session);
  const held = holding();
  const placement = entry && entry.placementAtRelease ? await placementAtRelease(page, entry) : undefined;
  page.link.send({ type: Kind.RELEASED, job: msg.job, session: msg.session, existed: !!entry, memory, ledger, holding: held,
    ...(placement === undefined ? {} : { placement }) });
}

// The check the load left for the release: the same model and options, the case's own session gone. A check that fails
// for another reason than onnxruntime-web's refusal says nothing of the placement (null) and leaves the release as it was.
async function placementAtRelease(page, entry) {
  const { bytes, url, capture } = entry.placementAtRelease;
  try {
    let model = bytes;
    if (!model) {
      const resp = await fetch(bridgeUrl(url, page.token), { cache: 'no-store' });
      if (!resp.ok) throw new Error(`fetching the model again returned HTTP ${resp.status}`);
      model = new Uint8Array(await resp.arrayBuffer());
    }
    return await checkedPlacement(page.ort, model, entry.sessionOptions, capture);
  } catch (e) {
    page.ui.log(`the placement check at release failed: ${errorText(e)}`);
    return null;
  }
}
