// What arrives from the bridge: text and binary frames checked, then handed to their kind's row in jobs/table.mjs.
import { PROTOCOL_VERSION, decodeFrame } from './frames.mjs';
import { errorText } from './probe.mjs';
import { frameViews } from './tensors.mjs';
import { rowOf, TEXT, BINARY } from './jobs/table.mjs';

export function onText(page, data) {
  const { link } = page;
  let msg;
  try { msg = JSON.parse(data); } catch (e) { link.sendError(null, 'bad-frame', `text frame is not JSON: ${e.message}`); return; }
  if (!msg || typeof msg !== 'object') { link.sendError(null, 'bad-frame', 'text frame is not a JSON object'); return; }
  if (msg.v !== PROTOCOL_VERSION) { link.sendError(msg.job, 'version-mismatch', `page speaks protocol v${PROTOCOL_VERSION}, message has v=${msg.v}`); return; }
  const row = rowOf(msg.type, TEXT);
  if (!row) { link.sendError(msg.job, 'unknown-type', `unknown message type '${msg.type}'`); return; }
  if (row.now) row.now(page, msg, null);
  else queue(page, row, msg, null);
}

export function onBinary(page, buffer) {
  const { link } = page;
  let frame;
  try { frame = decodeFrame(buffer); } catch (e) { link.sendError(null, 'bad-frame', errorText(e)); return; }
  const msg = frame.header;
  if (msg.v !== PROTOCOL_VERSION) { link.sendError(msg.job, 'version-mismatch', `page speaks protocol v${PROTOCOL_VERSION}, frame has v=${msg.v}`); return; }
  const row = rowOf(msg.type, BINARY);
  if (!row) { link.sendError(msg.job, 'unknown-type', `unknown binary frame type '${msg.type}'`); return; }
  if (row.now) { row.now(page, msg, frame); return; }
  if (row.inputs === 'model') { queue(page, row, msg, new Uint8Array(buffer, frame.payloadStart, frame.payloadLength)); return; }
  // 'tensors': in this frame, or in the chunks that follow it
  if (msg.chunked === true) { page.inbound.begin(msg, (views) => queue(page, row, msg, views)); return; }
  let views;
  try { views = frameViews(frame); } catch (e) { link.sendError(msg.job, 'bad-frame', errorText(e)); return; }
  queue(page, row, msg, views);
}

function queue(page, row, msg, inputs) {
  if (row.arrives) row.arrives(page, msg);
  if (row.status) page.ui.setState(row.status(msg));
  page.queue.enqueue(msg.job, row.fails, () => row.job(page, msg, inputs), row.session ? msg.session : undefined);
}
