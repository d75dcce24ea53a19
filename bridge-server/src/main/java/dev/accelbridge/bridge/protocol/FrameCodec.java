package dev.accelbridge.bridge.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.NamedTensor;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.ByteOrder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The binary frame envelope of protocol v1, the same layout {@code frames.mjs} reads and writes:
 * <pre>
 *   bytes 0..3    ASCII "ABF1"
 *   bytes 4..7    header length H, unsigned 32-bit little-endian, padded so that 8 + H is a multiple of 8
 *   bytes 8..8+H  UTF-8 JSON header (trailing spaces pad it); header.tensors = [{name, dtype, shape, offset, byteLength}]
 *   then          the payload; tensor offsets are relative to its start and 8-aligned
 * </pre>
 * Tensors travel as their raw little-endian bytes (never JSON number arrays), so the page sees the very bits
 * the native runner is fed.
 */
public final class FrameCodec {
    private static final com.fasterxml.jackson.databind.ObjectMapper TABLE = new com.fasterxml.jackson.databind.ObjectMapper();

    /** The protocol version every message carries as {@code "v"}. */
    public static final int PROTOCOL_VERSION = 1;

    private static final byte[] MAGIC = {'A', 'B', 'F', '1'};
    private static final ObjectMapper JSON = new ObjectMapper();

    private FrameCodec() {
    }

    /** A decoded binary frame: its JSON header and the tensors it describes. */
    public record Frame(ObjectNode header, List<NamedTensor> tensors, int payloadBytes) {
        /** The header's {@code type}. */
        public String type() {
            return header.path("type").asText("");
        }
    }

    /**
     * The largest piece of one tensor a chunk frame carries (protocol v1, "chunked transfer"): no frame ever holds a
     * whole large tensor, so no single message limit bounds a model's inputs or outputs.
     */
    public static final int CHUNK_BYTES = 4 << 20;

    /** A frame's header and its payload, undecoded (a chunk's bytes, read in place). */
    public record Raw(ObjectNode header, ByteBuffer payload) {
        /** The header's {@code type}. */
        public String type() {
            return header.path("type").asText("");
        }
    }

    /**
     * A header that describes {@code tensors} without carrying them ({@code "chunked": true}): their bytes follow in
     * {@link #encodeChunk chunk frames}.
     */
    public static byte[] encodeChunkedHeader(ObjectNode header, List<NamedTensor> tensors) {
        ObjectNode h = header.deepCopy();
        h.put("chunked", true);
        describe(h, tensors, true);
        return envelope(h, 0).array();
    }

    /** A chunk frame: {@code header} ({@code type}, {@code job}, {@code tensor}, {@code offset}) and {@code len} bytes of {@code data}. */
    public static ByteBuffer encodeChunk(ObjectNode header, byte[] data, int off, int len) {
        ByteBuffer b = envelope(header, len);
        b.put(data, off, len);
        return b.flip();
    }

    /** Whether {@code total} bytes of tensors go in chunks rather than in their job's frame. */
    public static boolean chunked(long total) {
        return total > CHUNK_BYTES;
    }

    /**
     * Writes {@code header.tensors}, one descriptor per tensor; returns their payload offsets (8-aligned one after the
     * other, or all 0 when the bytes travel in chunks of their own).
     */
    private static List<Long> describe(ObjectNode h, List<NamedTensor> tensors, boolean chunked) {
        List<ResultHeader.TensorEntry> table = new ArrayList<>();
        long off = 0;
        List<Long> offsets = new ArrayList<>();
        for (NamedTensor t : tensors) {
            table.add(new ResultHeader.TensorEntry(t.name(), t.dtype().webName(), java.util.Arrays.stream(t.shape()).boxed().toList(),
                    chunked ? 0 : off, (long) t.data().length));
            offsets.add(chunked ? 0 : off);
            off = pad8(off + t.data().length);
        }
        h.set("tensors", TABLE.valueToTree(table)); // the one tensor table both ways (ResultHeader.TensorEntry)
        return offsets;
    }

    private static ByteBuffer envelope(ObjectNode header, int payload) {
        byte[] json = header.toString().getBytes(StandardCharsets.UTF_8);
        int hl = (int) pad8(8 + json.length) - 8;
        ByteBuffer b = ByteBuffer.allocate(8 + hl + payload).order(ByteOrder.LITTLE_ENDIAN);
        b.put(MAGIC).putInt(hl).put(json);
        for (int i = json.length; i < hl; i++) {
            b.put((byte) ' ');
        }
        return b;
    }

    /**
     * The header of a frame and its payload in place, nothing copied.
     *
     * @throws PageProtocolException ({@code bad-frame}) naming what is wrong with it
     */
    public static Raw decodeRaw(ByteBuffer data) {
        ByteBuffer b = data.duplicate().order(ByteOrder.LITTLE_ENDIAN);
        int n = b.remaining();
        int base = b.position();
        if (n < 8) {
            throw bad("binary frame of " + n + " bytes is shorter than the 8-byte prefix");
        }
        for (int i = 0; i < 4; i++) {
            if (b.get(base + i) != MAGIC[i]) {
                throw bad("binary frame does not start with \"ABF1\"");
            }
        }
        long hl = Integer.toUnsignedLong(b.getInt(base + 4));
        if (8 + hl > n) {
            throw bad("header length " + hl + " runs past the frame (" + n + " bytes)");
        }
        byte[] json = new byte[(int) hl];
        b.get(base + 8, json);
        JsonNode header;
        try {
            header = JSON.readTree(json);
        } catch (IOException e) {
            throw bad("header is not JSON: " + e.getMessage());
        }
        if (!(header instanceof ObjectNode obj)) {
            throw bad("header is not a JSON object");
        }
        ByteBuffer payload = b.position(base + 8 + (int) hl).slice().order(ByteOrder.LITTLE_ENDIAN);
        return new Raw(obj, payload);
    }

    /** Encodes a header (its {@code tensors} field is filled here) and tensors into one frame. */
    public static byte[] encode(ObjectNode header, List<NamedTensor> tensors) {
        ObjectNode h = header.deepCopy();
        List<Long> offsets = describe(h, tensors, false);
        long off = offsets.isEmpty() ? 0 : pad8(offsets.get(offsets.size() - 1) + tensors.get(tensors.size() - 1).data().length);
        if (off > Integer.MAX_VALUE - 4096) {
            throw new AccelbridgeException("A frame of " + off + " bytes of tensors is too large for one WebSocket message",
                    "send them in chunks (encodeChunkedHeader, encodeChunk)");
        }
        ByteBuffer b = envelope(h, (int) off);
        int payload = b.position();
        for (int i = 0; i < tensors.size(); i++) {
            b.put(payload + offsets.get(i).intValue(), tensors.get(i).data());
        }
        return b.array();
    }

    /**
     * Decodes a frame.
     *
     * @throws PageProtocolException ({@code bad-frame}) naming what is wrong with it
     */
    public static Frame decode(ByteBuffer data) {
        Raw raw = decodeRaw(data);
        ByteBuffer payload = raw.payload();
        int payloadLen = payload.remaining();
        List<NamedTensor> tensors = new ArrayList<>();
        for (JsonNode d : raw.header().path("tensors")) {
            String name = d.path("name").asText("");
            DType dtype;
            try {
                dtype = DType.parse(d.path("dtype").asText("?"));
            } catch (AccelbridgeException e) {
                throw bad("tensor '" + name + "' has unsupported dtype '" + d.path("dtype").asText() + "'");
            }
            long off = d.path("offset").asLong(-1);
            long len = d.path("byteLength").asLong(-1);
            if (off < 0 || len < 0 || off > payloadLen || len > payloadLen - off) { // never off + len: it can wrap
                throw bad("tensor '" + name + "' (" + off + "+" + len + ") runs past the payload (" + payloadLen + " bytes)");
            }
            long[] shape = new long[d.path("shape").size()];
            for (int i = 0; i < shape.length; i++) {
                shape[i] = d.path("shape").get(i).asLong(-1);
            }
            byte[] bytes = new byte[(int) len];
            payload.get((int) off, bytes);
            try {
                tensors.add(new NamedTensor(name, dtype, shape, bytes));
            } catch (AccelbridgeException e) {
                throw bad(e.getMessage());
            }
        }
        return new Frame(raw.header(), List.copyOf(tensors), payloadLen);
    }

    private static PageProtocolException bad(String msg) {
        return new PageProtocolException("bad-frame", msg);
    }

    private static long pad8(long n) {
        return (n + 7) & ~7L;
    }
}
