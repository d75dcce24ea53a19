package dev.accelbridge.suites;

import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.NamedTensor;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.util.Map;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The LARGE size. Vision (224x224, 1000 classes, ~1.5 GFLOPs) always runs; text (BERT-base, ~350 MB file) and
 * audio (Whisper-base-like on 30 s) only with {@code -Daccelbridge.test.large=true}, to keep the suite fast.
 */
class LargeSizeTest {
    @TempDir
    Path dir;

    @Test
    void largeVisionIs224PixelsWithAThousandClasses() throws Exception {
        ModelCase c = Batching.atBatch(SuiteCatalog.create(new SuiteOptions(dir, ModelSize.LARGE, 1)).cases(ModelFamily.VISION).get(0), 1)
                .orElseThrow();
        assertThat(c.model().name()).isEqualTo("convnet-large");
        assertThat(c.inputs().get(0).shape()).containsExactly(1, 3, 224, 224);
        NamedTensor logits = Ort.run(c.model().path(), c.inputs()).get("logits");
        assertThat(logits.shape()).containsExactly(1, 1000);
        assertThat(Ort.allFinite(logits)).isTrue();
    }

    @Test
    void largeTextAndAudioRunWhenAsked() throws Exception {
        Assumptions.assumeTrue(Boolean.getBoolean("accelbridge.test.large"), "set -Daccelbridge.test.large=true to build BERT-base and Whisper-base sizes");
        SuiteCatalog cat = SuiteCatalog.create(new SuiteOptions(dir, ModelSize.LARGE, 1));
        for (ModelFamily f : new ModelFamily[] {ModelFamily.TEXT, ModelFamily.AUDIO}) {
            long t0 = System.nanoTime();
            ModelCase c = cat.cases(f).get(0);
            long t1 = System.nanoTime();
            Map<String, NamedTensor> out = Ort.run(c.model().path(), c.inputs());
            long t2 = System.nanoTime();
            System.out.printf("%s: %,d params, generate+write %.1f s, ORT load+run %.1f s, shapes %s%n", c.model().name(),
                    c.model().parameters(), (t1 - t0) / 1e9, (t2 - t1) / 1e9,
                    out.values().stream().map(NamedTensor::toString).toList());
            assertThat(out.values()).allMatch(Ort::allFinite);
        }
        System.out.println(cat.describe());
    }
}
