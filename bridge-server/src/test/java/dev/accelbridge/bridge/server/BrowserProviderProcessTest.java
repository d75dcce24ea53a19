package dev.accelbridge.bridge.server;

import dev.accelbridge.browser.launch.BrowserKind;
import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.LaunchOptions;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Parity;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/** Debian's Chromium as a plain process: probe, wasm and webgpu (SwiftShader) on a tiny MLP checked against its exact math. */
class BrowserProviderProcessTest {
    static BridgeServer server;
    static BrowserBackendProvider provider;
    @TempDir
    static Path dir;

    @BeforeAll
    static void start() {
        assumeTrue(ProcessChromium.installed(), "needs /usr/lib/chromium/chromium");
        server = BridgeServer.start(BridgeOptions.defaults());
        LaunchOptions lo = LaunchOptions.builder().browser(BrowserKind.CHROMIUM).driver(DriverKind.PROCESS)
                .addArgs(List.of("--enable-unsafe-webgpu", "--enable-features=WebMachineLearningNeuralNetwork")).build();
        provider = new BrowserBackendProvider(server, lo, new ProcessChromium());
    }

    @AfterAll
    static void stop() {
        if (provider != null) {
            provider.close();
        }
        if (server != null) {
            server.close();
        }
    }

    @Test
    void probeReportsTheBrowsersOwnValues() {
        assertThat(provider.pageProbe().userAgent()).contains("Chrome/" + provider.browserVersion().split("\\.")[0]);
        assertThat(provider.pageProbe().crossOriginIsolated()).isTrue();
        Availability wasm = provider.probe(BackendId.WASM);
        assertThat(wasm.available()).isTrue();
        assertThat(wasm.evidence()).contains("SIMD yes").contains("threads yes");
        Availability gpu = provider.probe(BackendId.WEBGPU);
        assertThat(gpu.available()).as(gpu.evidence()).isTrue();
        assertThat(provider.pageProbe().webgpu().architecture()).isEqualTo("swiftshader");
        assertThat(provider.pageProbe().webgpu().software()).isTrue();
        Availability nn = provider.probe(BackendId.WEBNN_CPU);
        assertThat(nn.available()).isFalse();
        assertThat(nn.evidence()).contains("NotSupportedError").contains("WebNN is not supported on this platform.");
    }

    @Test
    void wasmAndWebgpuMatchTheExactMath() throws Exception {
        TinyOnnx.Mlp mlp = TinyOnnx.mlp(16, 32, 8, 2, 11L);
        ModelSpec spec = TinyOnnx.write(mlp, dir, "mlp");
        float[] x = new float[2 * 16];
        for (int i = 0; i < x.length; i++) {
            x[i] = (float) Math.sin(i * 0.37);
        }
        double[] ref = mlp.forward(x, 2);
        float[] reff = new float[ref.length];
        for (int i = 0; i < ref.length; i++) {
            reff[i] = (float) ref[i];
        }
        NamedTensor expected = NamedTensor.ofFloats("y", new long[] {2, 8}, reff);
        ModelCase mc = new ModelCase(spec, "sines", List.of(NamedTensor.ofFloats("x", new long[] {2, 16}, x)), Optional.empty());
        for (BackendId b : List.of(BackendId.WASM, BackendId.WEBGPU)) {
            Execution e = provider.execute(new ExecutionRequest(b, mc, 1, 3, Duration.ofSeconds(90)));
            Parity p = Parity.compare(List.of(expected), e.outputs(), 1e-4, "exact");
            assertThat(p.within()).as(b + " " + p).isTrue();
            assertThat(e.timings().samplesMs()).hasSize(3);
            assertThat(e.timings().loadMs()).isPositive();
            assertThat(e.provenance().runtimeVersions()).containsEntry("onnxruntime-web", "1.30.0");
            System.out.println(b + ": " + e.timings() + " " + e.provenance() + " warnings " + e.warnings());
        }
    }
}
