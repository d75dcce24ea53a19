// The probe job: the browser probed again (probe.mjs), answered, and kept for the page's next hello.
import { Kind } from '../kinds.mjs';
import { probeBrowser } from '../probe.mjs';

export async function probeJob(page, msg) {
  page.probe = await probeBrowser();
  page.link.send({ type: Kind.PROBE, job: msg.job, probe: page.probe });
}
