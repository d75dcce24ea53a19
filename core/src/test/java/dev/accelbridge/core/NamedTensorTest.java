package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class NamedTensorTest {
    @Test
    void atBatchCyclesTheItemsInOrderAndItemTakesOneBack() {
        NamedTensor t = NamedTensor.ofFloats("x", new long[] {2, 3}, new float[] {1, 2, 3, 4, 5, 6});
        NamedTensor five = t.atBatch(5);
        assertThat(five.shape()).containsExactly(5, 3);
        assertThat(five.toFloats()).containsExactly(1, 2, 3, 4, 5, 6, 1, 2, 3, 4, 5, 6, 1, 2, 3);
        assertThat(five.item(3).toFloats()).containsExactly(4, 5, 6);
        assertThat(five.item(3).shape()).containsExactly(1, 3);
        assertThat(t.atBatch(1)).isEqualTo(t.item(0));
        assertThatThrownBy(() -> t.item(2)).isInstanceOf(AccelbridgeException.class).hasMessageContaining("no item 2");
        assertThatThrownBy(() -> NamedTensor.ofLongs("sr", new long[0], new long[] {16000}).atBatch(2))
                .isInstanceOf(AccelbridgeException.class).hasMessageContaining("no leading");
    }
}
