package dev.accelbridge.bridge.protocol;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.NamedTensor;
import org.junit.jupiter.api.Test;

import java.nio.ByteBuffer;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class FrameCodecTest {
    @Test
    void tensorsRoundTripBitExactWithAlignedOffsets() {
        NamedTensor ids = NamedTensor.ofLongs("input_ids", new long[] {1, 3}, new long[] {101, -7, Long.MAX_VALUE});
        NamedTensor x = NamedTensor.ofFloats("x", new long[] {3}, new float[] {1.5f, Float.NaN, -0f});
        NamedTensor mask = new NamedTensor("mask", DType.BOOL, new long[] {3}, new byte[] {1, 0, 1});
        ObjectNode h = new ObjectMapper().createObjectNode().put("v", 1).put("type", "run").put("job", "j1");
        byte[] frame = FrameCodec.encode(h, List.of(x, mask, ids));
        FrameCodec.Frame f = FrameCodec.decode(ByteBuffer.wrap(frame));
        assertThat(f.type()).isEqualTo("run");
        assertThat(f.header().path("job").asText()).isEqualTo("j1");
        assertThat(f.tensors()).containsExactly(x, mask, ids);
        int headerLen = ByteBuffer.wrap(frame, 4, 4).order(java.nio.ByteOrder.LITTLE_ENDIAN).getInt();
        assertThat((8 + headerLen) % 8).isZero();
        f.header().path("tensors").forEach(t -> assertThat(t.path("offset").asLong() % 8).isZero());
    }

    @Test
    void malformedFramesNameWhatIsWrong() {
        assertThatThrownBy(() -> FrameCodec.decode(ByteBuffer.wrap(new byte[] {65, 66})))
                .isInstanceOf(PageProtocolException.class).hasMessageContaining("shorter than the 8-byte prefix");
        ObjectNode h = new ObjectMapper().createObjectNode().put("v", 1);
        byte[] ok = FrameCodec.encode(h, List.of(NamedTensor.ofFloats("y", new long[] {2}, new float[] {1, 2})));
        byte[] truncated = java.util.Arrays.copyOf(ok, ok.length - 4);
        assertThatThrownBy(() -> FrameCodec.decode(ByteBuffer.wrap(truncated)))
                .isInstanceOf(PageProtocolException.class).hasMessageContaining("runs past the payload")
                .satisfies(e -> assertThat(((PageProtocolException) e).code()).isEqualTo("bad-frame"));
        String badShape = new String(ok, java.nio.charset.StandardCharsets.ISO_8859_1).replace("\"shape\":[2]", "\"shape\":[3]");
        assertThatThrownBy(() -> FrameCodec.decode(ByteBuffer.wrap(badShape.getBytes(java.nio.charset.StandardCharsets.ISO_8859_1))))
                .isInstanceOf(PageProtocolException.class).hasMessageContaining("has 8 bytes but shape [3]");
    }

    /** Found when tried: an offset near 2^63 made {@code offset + byteLength} wrap below the payload's size and pass. */
    @Test
    void anOffsetThatWrapsIsRefusedByName() {
        byte[] json = ("{\"v\":1,\"tensors\":[{\"name\":\"y\",\"dtype\":\"float32\",\"shape\":[2],"
                + "\"offset\":9223372036854775800,\"byteLength\":16}]}").getBytes(java.nio.charset.StandardCharsets.UTF_8);
        int h = (json.length + 7) / 8 * 8;
        ByteBuffer b = ByteBuffer.allocate(8 + h + 8).order(java.nio.ByteOrder.LITTLE_ENDIAN);
        b.put(new byte[] {'A', 'B', 'F', '1'}).putInt(h).put(json);
        while (b.position() < 8 + h) {
            b.put((byte) ' ');
        }
        b.putLong(0).flip();
        assertThatThrownBy(() -> FrameCodec.decode(b)).isInstanceOf(PageProtocolException.class)
                .hasMessageContaining("runs past the payload");
    }
}
