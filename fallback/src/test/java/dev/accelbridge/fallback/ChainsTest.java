package dev.accelbridge.fallback;

import dev.accelbridge.core.BackendId;
import org.junit.jupiter.api.Test;

import static dev.accelbridge.core.BackendId.*;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class ChainsTest {

    @Test
    void defaultsCoverEveryBackendAndMatchTheDesign() {
        Chains d = Chains.defaults();
        for (BackendId b : BackendId.values()) {
            assertThat(d.forBackend(b).requested()).isEqualTo(b);
        }
        assertThat(d.forBackend(WEBGPU).hops()).containsExactly(WEBGPU, WEBNN_GPU, WEBNN_CPU, WASM);
        assertThat(d.forBackend(WEBNN_GPU).hops()).containsExactly(WEBNN_GPU, WEBNN_CPU, WASM);
        assertThat(d.forBackend(WEBNN_NPU).hops()).containsExactly(WEBNN_NPU, WEBNN_GPU, WEBNN_CPU, WASM);
        assertThat(d.forBackend(WEBNN_CPU).hops()).containsExactly(WEBNN_CPU, WASM);
        assertThat(d.forBackend(WASM).hops()).containsExactly(WASM);
        assertThat(d.forBackend(CUDA).hops()).containsExactly(CUDA, OPENVINO, CPU);
        assertThat(d.forBackend(ROCM).hops()).containsExactly(ROCM, OPENVINO, CPU);
        assertThat(d.forBackend(COREML).hops()).containsExactly(COREML, CPU);
        assertThat(d.forBackend(OPENVINO).hops()).containsExactly(OPENVINO, CPU);
        assertThat(d.forBackend(CPU).hops()).containsExactly(CPU);
    }

    @Test
    void parsesTheCommandLineForm() {
        Chain c = Chains.parse(" webgpu , WEBNN-GPU,wasm ");
        assertThat(c.requested()).isEqualTo(WEBGPU);
        assertThat(c.hops()).containsExactly(WEBGPU, WEBNN_GPU, WASM);
        assertThat(c.toCsv()).isEqualTo("webgpu,webnn-gpu,wasm");
        assertThat(Chains.defaults().with(c).forBackend(WEBGPU)).isEqualTo(c);
        assertThat(Chains.defaults().forBackend(WEBGPU).hops()).hasSize(4);
    }

    @Test
    void rejectsUnknownBackendsWithTheValidIds() {
        assertThatThrownBy(() -> Chains.parse("webgpu,webgl,wasm"))
                .isInstanceOf(InvalidChainException.class)
                .hasMessageContaining("Unknown backend 'webgl'")
                .satisfies(e -> assertThat(((InvalidChainException) e).fix()).contains("webnn-gpu", "cpu"));
    }

    @Test
    void rejectsMixingBrowserAndNative() {
        assertThatThrownBy(() -> Chains.parse("webgpu,cpu"))
                .isInstanceOf(InvalidChainException.class)
                .hasMessageContaining("mixes browser and native")
                .hasMessageContaining("cpu is native");
    }

    @Test
    void rejectsDuplicatesAndEmptyParts() {
        assertThatThrownBy(() -> Chains.parse("cuda,cpu,cuda")).isInstanceOf(InvalidChainException.class)
                .hasMessageContaining("names cuda twice");
        assertThatThrownBy(() -> Chains.parse("cuda,,cpu")).isInstanceOf(InvalidChainException.class)
                .hasMessageContaining("Empty element");
        assertThatThrownBy(() -> Chains.parse("  ")).isInstanceOf(InvalidChainException.class)
                .hasMessageContaining("Empty fallback chain");
    }

    @Test
    void parsesTheConfigFormOverTheDefaults() {
        Chains c = Chains.parseConfig("""
                # my chains
                webgpu = webgpu,wasm   # skip webnn
                cuda: cpu
                """);
        assertThat(c.forBackend(WEBGPU).hops()).containsExactly(WEBGPU, WASM);
        assertThat(c.forBackend(CUDA).hops()).containsExactly(CUDA, CPU);
        assertThat(c.forBackend(ROCM).hops()).containsExactly(ROCM, OPENVINO, CPU);
        assertThat(Chains.parseConfig(c.toConfig()).asMap()).isEqualTo(c.asMap());
    }

    @Test
    void configErrorsNameTheLine() {
        assertThatThrownBy(() -> Chains.parseConfig("webgpu = webgpu,wasm\nwebgpu wasm\n"))
                .isInstanceOf(InvalidChainException.class).hasMessageContaining("line 2");
        assertThatThrownBy(() -> Chains.parseConfig("\nwebgpu = wasm,cpu\n"))
                .isInstanceOf(InvalidChainException.class).hasMessageContaining("line 2").hasMessageContaining("mixes");
        assertThatThrownBy(() -> Chains.parseConfig("metal = cpu"))
                .isInstanceOf(InvalidChainException.class).hasMessageContaining("line 1").hasMessageContaining("'metal'");
        assertThatThrownBy(() -> Chains.parseConfig("cuda = cpu\ncuda = openvino"))
                .isInstanceOf(InvalidChainException.class).hasMessageContaining("line 2").hasMessageContaining("first set on line 1");
    }

    @Test
    void chainMustStartWithRequested() {
        assertThatThrownBy(() -> new Chain(CUDA, java.util.List.of(CPU, CUDA)))
                .isInstanceOf(InvalidChainException.class).hasMessageContaining("does not start with");
    }
}
