package dev.accelbridge.browser.observe;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The paths a page names its external data by: kept only under plain relative names, never outside the model's folder. */
class ModelKeeperTest {
    @Test
    void plainRelativeNamesAreKeptAndEveryOtherPathIsRefused() {
        assertThat(java.util.List.of("weights.bin", "model.onnx_data", "shards/part-00001.bin", "a-b_c+d.1"))
                .allMatch(ModelKeeper::plain);
        assertThat(java.util.Arrays.asList("../weights.bin", "a/../../b", "/etc/passwd", "./w.bin", "a//b", "C:\\w.bin", "a\\b", "",
                "w.bin\u0000.txt", "..", ".", "a/./b", "x".repeat(201), null)).noneMatch(ModelKeeper::plain);
    }
}
