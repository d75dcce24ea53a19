package dev.accelbridge.suites.precision;

import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import org.junit.jupiter.api.Test;

import java.util.SplittableRandom;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The q4 packing, read back the way {@code MatMulNBits} reads it: value = (nibble - 8) * the block's scale. */
class BlockQuantizerTest {
    @Test
    void eachValueReadsBackWithinHalfAStepOfItsBlocksScaleAndAShortLastBlockIsPaddedWithZero() {
        int k = 40; // one block of 32 and one of 8 padded to 32
        int n = 3;
        float[] w = new float[k * n];
        SplittableRandom r = new SplittableRandom(7);
        for (int i = 0; i < w.length; i++) {
            w[i] = (float) (r.nextDouble() * 2 - 1) * (i % n + 1);
        }
        BlockQuantizer.Packed p = BlockQuantizer.pack(w, k, n);
        assertThat(p.blocks()).isEqualTo(2);
        assertThat(p.nibbles()).hasSize(n * 2 * 16);
        for (int c = 0; c < n; c++) {
            for (int row = 0; row < 2 * BlockQuantizer.BLOCK; row++) {
                int b = row / BlockQuantizer.BLOCK;
                int j = row % BlockQuantizer.BLOCK;
                int at = (c * 2 + b) * 16 + j / 2;
                int q = j % 2 == 0 ? p.nibbles()[at] & 0x0F : (p.nibbles()[at] >> 4) & 0x0F;
                float scale = p.scales()[c * 2 + b];
                float back = (q - 8) * scale;
                float want = row < k ? w[row * n + c] : 0f;
                assertThat((double) Math.abs(back - want)).as("column %d row %d", c, row).isLessThanOrEqualTo(scale / 2 + 1e-6);
            }
        }
    }

    @Test
    void aModelWithNoConstantMatMulIsRefusedWithTheReason() {
        ModelProto m = ModelProto.newBuilder().setIrVersion(8).addOpsetImport(dev.accelbridge.suites.onnx.proto.Onnx.OperatorSetIdProto
                .newBuilder().setVersion(17)).setGraph(dev.accelbridge.suites.onnx.proto.Onnx.GraphProto.newBuilder().setName("g")).build();
        assertThatThrownBy(() -> BlockQuantizer.quantize(m)).isInstanceOf(ConversionException.class)
                .hasMessageContaining("no MatMul with a constant 2-D weight");
    }
}
