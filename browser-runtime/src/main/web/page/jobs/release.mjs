// The release job (docs/protocol.md, "release"): lets a session go and answers with the heap after it (the re-creation
// leak check reads it) and the case's memory window (ledger.mjs), closed once the session is gone.
// Its arrival already acts: the session's jobs still queued are skipped (queue.mjs).
import { Kind } from '../kinds.mjs';
import { disposeAll } from '../tensors.mjs';
import { heapSnapshot } from './common.mjs';
import { closeWindow, holding } from '../ledger.mjs';

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
  page.link.send({ type: Kind.RELEASED, job: msg.job, session: msg.session, existed: !!entry, memory: heapSnapshot(false),
    ledger: closeWindow(msg.session), holding: holding() });
}
