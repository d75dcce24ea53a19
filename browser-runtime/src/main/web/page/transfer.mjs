// Chunked transfer (docs/protocol.md): no frame holds a whole large tensor. A run or profile job's inputs may follow its
// header in chunk frames (Inbound); a result's outputs above the job's chunkBytes follow its header in result-chunk frames
// (sendResult).
import { Kind } from './kinds.mjs';
import { PROTOCOL_VERSION, encodeFrame, encodeChunk, typedOf } from './frames.mjs';
import { errorText } from './probe.mjs';
import { refuseOverLimit } from './ledger.mjs';

// Sends a result: in one frame when small, else a header that describes the outputs ("chunked": true) and one
// result-chunk frame per piece of at most chunkBytes, waiting while the socket's buffer is full so the page never queues
// a second copy of every output.
export async function sendResult(link, header, tensors, chunkBytes) {
  refuseOverLimit();
  const total = tensors.reduce((a, t) => a + t.data.byteLength, 0);
  if (!chunkBytes || total <= chunkBytes) { link.sendFrame(encodeFrame(header, tensors)); return; }
  const descs = tensors.map((t) => ({ name: t.name, dtype: t.dtype, shape: t.dims.map(Number), offset: 0, byteLength: t.data.byteLength }));
  link.sendFrame(encodeChunk({ ...header, chunked: true, tensors: descs }, new Uint8Array(0)));
  for (let i = 0; i < tensors.length; i++) {
    const d = tensors[i].data;
    const bytes = new Uint8Array(d.buffer, d.byteOffset, d.byteLength);
    for (let off = 0; off < bytes.byteLength; off += chunkBytes) {
      while (link.bufferedAmount > 4 * chunkBytes) await new Promise((r) => setTimeout(r, 2));
      if (!link.open) throw new Error('the bridge connection closed while the result was sent');
      link.sendFrame(encodeChunk({ v: PROTOCOL_VERSION, type: Kind.RESULT_CHUNK, job: header.job, tensor: i, offset: off },
        bytes.subarray(off, Math.min(off + chunkBytes, bytes.byteLength))));
    }
  }
}

// The jobs whose inputs are still arriving: each input gets its own buffer when the header comes, filled chunk by chunk;
// the job goes on (`arrived(views)`) when its last byte is in.
export class Inbound {
  constructor(link) {
    this.link = link;
    this.jobs = new Map(); // job id -> { msg, buffers, remaining, arrived }
  }

  begin(msg, arrived) {
    try {
      const buffers = (msg.tensors || []).map((t) => new ArrayBuffer(t.byteLength));
      const remaining = (msg.tensors || []).reduce((a, t) => a + t.byteLength, 0);
      this.jobs.set(msg.job, { msg, buffers, remaining, arrived });
      if (remaining === 0) this.complete(msg.job);
    } catch (e) {
      this.link.sendError(msg.job, 'run-failed', `transfer: could not hold the job's inputs in this page: ${errorText(e)}`);
    }
  }

  accept(frame) {
    const h = frame.header;
    const job = this.jobs.get(h.job);
    if (!job) { this.link.sendError(h.job, 'unknown-job', `no chunked job '${h.job}' is receiving inputs`); return; }
    const buf = job.buffers[h.tensor];
    const len = frame.payloadLength;
    if (!buf || h.offset < 0 || h.offset + len > buf.byteLength) {
      this.jobs.delete(h.job);
      this.link.sendError(h.job, 'run-failed', `transfer: a chunk of input ${h.tensor} at ${h.offset} (+${len}) lies outside it`);
      return;
    }
    new Uint8Array(buf, h.offset, len).set(new Uint8Array(frame.buffer, frame.payloadStart, len));
    job.remaining -= len;
    if (job.remaining === 0) this.complete(h.job);
  }

  complete(jobId) {
    const { msg, buffers, arrived } = this.jobs.get(jobId);
    this.jobs.delete(jobId);
    let views;
    try { views = (msg.tensors || []).map((t, i) => typedOf(t, buffers[i])); } catch (e) { this.link.sendError(msg.job, 'bad-frame', errorText(e)); return; }
    arrived(views);
  }
}
