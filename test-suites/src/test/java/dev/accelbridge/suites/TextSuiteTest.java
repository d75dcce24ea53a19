package dev.accelbridge.suites;

import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.NamedTensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

class TextSuiteTest {
    @TempDir
    Path dir;

    @Test
    void bertRunsOnOrtWithDocumentedShapes() throws Exception {
        ModelCase c = SuiteCatalog.create(SuiteOptions.defaults(dir)).cases(ModelFamily.TEXT).get(0);
        assertThat(c.model().name()).isEqualTo("bert-mini");
        assertThat(c.model().opset()).isEqualTo(17);
        assertThat(c.model().ops()).contains("Gather", "LayerNormalization", "Softmax", "Erf", "Tanh", "Unsqueeze");
        Map<String, NamedTensor> out = Ort.run(c.model().path(), c.inputs());
        assertThat(out.get("last_hidden_state").shape()).containsExactly(4, 24, 64);
        assertThat(out.get("pooler_output").shape()).containsExactly(4, 64);
        assertThat(out.values()).allMatch(Ort::allFinite);
    }

    @Test
    void attentionMaskHidesPaddedTokens() throws Exception {
        ModelCase c = SuiteCatalog.create(SuiteOptions.defaults(dir)).cases(ModelFamily.TEXT).get(0);
        long[] ids = c.inputs().get(0).toLongs();
        long[] mask = c.inputs().get(1).toLongs();
        long[] shape = c.inputs().get(0).shape();
        int row0Last = (int) shape[1] - 1;
        assertThat(mask[row0Last]).isZero();
        long[] changed = ids.clone();
        changed[row0Last] = 42;

        float[] base = pooled(c, ids, mask, shape);
        float[] masked = pooled(c, changed, mask, shape);
        for (int i = 0; i < 64; i++) {
            assertThat(masked[i]).isCloseTo(base[i], org.assertj.core.data.Offset.offset(1e-6f));
        }
        // Without the mask the same change must move the [CLS] output: the check above can fail.
        long[] ones = new long[mask.length];
        java.util.Arrays.fill(ones, 1);
        float[] a = pooled(c, ids, ones, shape);
        float[] b = pooled(c, changed, ones, shape);
        double diff = 0;
        for (int i = 0; i < 64; i++) {
            diff = Math.max(diff, Math.abs(a[i] - b[i]));
        }
        assertThat(diff).isGreaterThan(1e-4);
    }

    private static float[] pooled(ModelCase c, long[] ids, long[] mask, long[] shape) throws Exception {
        Map<String, NamedTensor> out = Ort.run(c.model().path(), List.of(
                NamedTensor.ofLongs("input_ids", shape, ids), NamedTensor.ofLongs("attention_mask", shape, mask)));
        return out.get("pooler_output").toFloats();
    }
}
