package dev.accelbridge.nativerunner;

import dev.accelbridge.core.DType;
import dev.accelbridge.core.ExecutionFailedException;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.TensorSpec;
import org.junit.jupiter.api.Test;

import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class InputCheckTest {
    private static final ModelSpec BERT = new ModelSpec(ModelFamily.TEXT, "bert", Path.of("bert.onnx"), "0", 13, 0,
            List.of(), List.of(new TensorSpec("input_ids", DType.INT64, new long[] {-1, 16}),
            new TensorSpec("attention_mask", DType.INT64, new long[] {-1, 16})), List.of(), "generated", 1e-3);

    private static NamedTensor ids(String name, long... shape) {
        return NamedTensor.ofLongs(name, shape, new long[(int) NamedTensor.elementCount(shape)]);
    }

    @Test
    void ordersByTheSessionsInputOrder() {
        List<NamedTensor> given = List.of(ids("attention_mask", 2, 16), ids("input_ids", 2, 16));
        assertThat(InputCheck.order(BERT, List.of("input_ids", "attention_mask"), given))
                .extracting(NamedTensor::name).containsExactly("input_ids", "attention_mask");
        assertThat(InputCheck.order(BERT, List.of(), given))
                .extracting(NamedTensor::name).containsExactly("input_ids", "attention_mask");
    }

    @Test
    void wrongTypeIsNamed() {
        NamedTensor f = NamedTensor.ofFloats("input_ids", new long[] {1, 16}, new float[16]);
        assertThatThrownBy(() -> InputCheck.order(BERT, List.of(), List.of(f, ids("attention_mask", 1, 16))))
                .isInstanceOf(ExecutionFailedException.class)
                .hasMessageContaining("Input 'input_ids' of model 'bert' is float32 but the model expects int64");
    }

    @Test
    void wrongRankOrFixedDimensionIsNamed() {
        assertThatThrownBy(() -> InputCheck.order(BERT, List.of(), List.of(ids("input_ids", 16), ids("attention_mask", 1, 16))))
                .hasMessageContaining("Input 'input_ids'").hasMessageContaining("[16]").hasMessageContaining("[-1, 16]");
        assertThatThrownBy(() -> InputCheck.order(BERT, List.of(), List.of(ids("input_ids", 1, 16), ids("attention_mask", 1, 8))))
                .hasMessageContaining("Input 'attention_mask'").hasMessageContaining("[1, 8]");
    }

    @Test
    void missingInputIsNamed() {
        assertThatThrownBy(() -> InputCheck.order(BERT, List.of(), List.of(ids("input_ids", 1, 16))))
                .isInstanceOf(ExecutionFailedException.class)
                .hasMessageContaining("needs input 'attention_mask'");
    }
}
