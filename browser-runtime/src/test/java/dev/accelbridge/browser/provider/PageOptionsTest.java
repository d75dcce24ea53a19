package dev.accelbridge.browser.provider;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.DecoderLayout;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.RuntimeOption;
import dev.accelbridge.bridge.SuiteFixtures;
import org.junit.jupiter.api.Test;

import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** Where a WebGPU session leaves its outputs by default, and what docs/generation.md says of it. */
class PageOptionsTest {
    @Test
    void aDecodersCacheStaysOnTheGpuByDefaultAndTheDocsSaySo() throws Exception {
        ModelCase gen = SuiteFixtures.cases(ModelFamily.TEXT_GENERATION).get(0);
        assertThat(gen.runtimeOptions().get(RuntimeOption.OUTPUTS)).isEqualTo("auto");
        assertThat(PageOptions.gpuOutputs(gen, BackendId.WEBGPU)).isNotEmpty()
                .containsExactlyElementsOf(((dev.accelbridge.core.Generation) gen.scenario()).layout().cache().stream().map(DecoderLayout.Cache::present).toList());
        assertThat(PageOptions.gpuOutputs(gen, BackendId.WASM)).isEmpty();
        // found: the docs said the cache crossed to the CPU at every step and that GPU-resident caches were future work
        String doc = Files.readString(Path.of("..", "docs", "generation.md"));
        assertThat(doc).contains("On WebGPU the cache stays on the GPU by default\n(`outputs=" + RuntimeOption.OUTPUTS.defaultValue() + "`")
                .doesNotContain("GPU-resident caches are the next step").doesNotContain("comes back to the page as CPU tensors");
    }
}
