// The page's jobs run one after another, in the order they came (docs/protocol.md, "Jobs"); a job's failure is answered
// and the page goes on with the next.
import { errorText } from './probe.mjs';
import { overLimit } from './ledger.mjs';

export class JobQueue {
  constructor(link, capture) {
    this.link = link;
    this.capture = capture;
    this.tail = Promise.resolve();
    // Sessions whose release has arrived and not yet run: their jobs still queued are skipped, so a case the bridge has
    // given up on or dropped (sent ahead and not used) does not keep the page from the jobs sent after it.
    this.releasing = new Set();
  }

  // Queues `fn` as job `job`; a throw is answered as `failure`. `session`, where given, is the job's session: the job is
  // skipped if that session's release arrived before it began. onnxruntime-web's console lines are kept meanwhile.
  enqueue(job, failure, fn, session) {
    this.tail = this.tail.then(async () => {
      if (session !== undefined && this.releasing.has(session)) {
        this.link.sendError(job, 'released', `session '${session}' was released before this job began; the job did not run`);
        return;
      }
      this.capture.warnings = [];
      try {
        await fn();
      } catch (e) {
        // a buffer asked for above the device's limit is why, whatever the engine's own error says
        this.link.sendError(job, failure, errorText(e), overLimit() || (e && e.overLimit));
      } finally {
        this.capture.warnings = null;
      }
    });
  }

  // `fn` after every job queued so far; not a job (nothing answered, nothing captured).
  after(fn) {
    this.tail = this.tail.then(fn);
  }
}
