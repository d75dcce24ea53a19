// Binary frame envelope of protocol v1 (docs/protocol.md):
//   bytes 0..3   ASCII "ABF1"
//   bytes 4..7   header length H, unsigned 32-bit little-endian (H is padded so 8 + H is a multiple of 8)
//   bytes 8..8+H UTF-8 JSON header (trailing spaces are padding)
//   then         payload; header.tensors[i].offset/byteLength are relative to the payload start, 8-aligned
export const PROTOCOL_VERSION = 1;
const MAGIC = [0x41, 0x42, 0x46, 0x31];

const TYPED = {
  float32: Float32Array,
  float64: Float64Array,
  int64: BigInt64Array,
  int32: Int32Array,
  int8: Int8Array,
  uint8: Uint8Array,
  bool: Uint8Array,
  float16: Uint16Array,
};

export class FrameError extends Error {
  constructor(message) { super(message); this.name = 'FrameError'; }
}

/** Parses an envelope; throws FrameError naming what is wrong. */
export function decodeFrame(buffer) {
  if (!(buffer instanceof ArrayBuffer)) throw new FrameError('binary frame is not an ArrayBuffer');
  if (buffer.byteLength < 8) throw new FrameError(`binary frame of ${buffer.byteLength} bytes is shorter than the 8-byte prefix`);
  const b = new Uint8Array(buffer);
  for (let i = 0; i < 4; i++) if (b[i] !== MAGIC[i]) throw new FrameError('binary frame does not start with "ABF1"');
  const h = new DataView(buffer).getUint32(4, true);
  if (8 + h > buffer.byteLength) throw new FrameError(`header length ${h} runs past the frame (${buffer.byteLength} bytes)`);
  let header;
  try { header = JSON.parse(new TextDecoder().decode(b.subarray(8, 8 + h))); } catch (e) { throw new FrameError(`header is not JSON: ${e.message}`); }
  const payloadStart = 8 + h;
  return { header, buffer, payloadStart, payloadLength: buffer.byteLength - payloadStart };
}

/** A typed-array view of one described tensor inside a decoded frame (no copy when aligned). */
export function tensorView(frame, t) {
  const Ctor = TYPED[t.dtype];
  if (!Ctor) throw new FrameError(`tensor '${t.name}' has unsupported dtype '${t.dtype}'`);
  const start = frame.payloadStart + t.offset;
  if (t.offset < 0 || t.byteLength < 0 || t.offset + t.byteLength > frame.payloadLength) {
    throw new FrameError(`tensor '${t.name}' (${t.offset}+${t.byteLength}) runs past the payload (${frame.payloadLength} bytes)`);
  }
  const count = t.shape.reduce((a, d) => a * d, 1);
  if (count * Ctor.BYTES_PER_ELEMENT !== t.byteLength) {
    throw new FrameError(`tensor '${t.name}' has ${t.byteLength} bytes but shape [${t.shape}] of ${t.dtype} needs ${count * Ctor.BYTES_PER_ELEMENT}`);
  }
  if (start % Ctor.BYTES_PER_ELEMENT === 0) return new Ctor(frame.buffer, start, count);
  return new Ctor(frame.buffer.slice(start, start + t.byteLength));
}

/** A typed array of a tensor assembled from chunks into its own ArrayBuffer (see docs/protocol.md, chunked transfer). */
export function typedOf(t, buffer) {
  const Ctor = TYPED[t.dtype];
  if (!Ctor) throw new FrameError(`tensor '${t.name}' has unsupported dtype '${t.dtype}'`);
  const count = t.shape.reduce((a, d) => a * d, 1);
  if (count * Ctor.BYTES_PER_ELEMENT !== t.byteLength || buffer.byteLength !== t.byteLength) {
    throw new FrameError(`tensor '${t.name}' has ${t.byteLength} bytes but shape [${t.shape}] of ${t.dtype} needs ${count * Ctor.BYTES_PER_ELEMENT}`);
  }
  return new Ctor(buffer, 0, count);
}

function pad8(n) { return (n + 7) & ~7; }

/** An envelope whose payload is `bytes` as they are (a chunk of one tensor), header as given. */
export function encodeChunk(header, bytes) {
  const json = new TextEncoder().encode(JSON.stringify(header));
  const h = pad8(8 + json.byteLength) - 8;
  const out = new Uint8Array(8 + h + bytes.byteLength);
  out.set(MAGIC, 0);
  new DataView(out.buffer).setUint32(4, h, true);
  out.fill(0x20, 8, 8 + h);
  out.set(json, 8);
  out.set(bytes, 8 + h);
  return out.buffer;
}

/** Builds an envelope from a header object and [{name, dtype, dims, data: TypedArray}] tensors. */
export function encodeFrame(header, tensors) {
  const descs = [];
  let off = 0;
  for (const t of tensors) {
    const bytes = new Uint8Array(t.data.buffer, t.data.byteOffset, t.data.byteLength);
    descs.push({ name: t.name, dtype: t.dtype, shape: t.dims.map(Number), offset: off, byteLength: bytes.byteLength, bytes });
    off = pad8(off + bytes.byteLength);
  }
  const full = { ...header, tensors: descs.map(({ bytes, ...d }) => d) };
  let json = new TextEncoder().encode(JSON.stringify(full));
  const h = pad8(8 + json.byteLength) - 8;
  const out = new Uint8Array(8 + h + off);
  out.set(MAGIC, 0);
  new DataView(out.buffer).setUint32(4, h, true);
  out.fill(0x20, 8, 8 + h);
  out.set(json, 8);
  for (const d of descs) out.set(d.bytes, 8 + h + d.offset);
  return out.buffer;
}
