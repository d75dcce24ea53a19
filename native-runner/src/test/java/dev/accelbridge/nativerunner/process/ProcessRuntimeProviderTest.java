package dev.accelbridge.nativerunner.process;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.BackendUnavailableException;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.RuntimeVersionProviders;
import dev.accelbridge.nativerunner.DjlOnnxRuntimeProvider;
import dev.accelbridge.nativerunner.TinyOnnx;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.ServiceLoader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * ONNX Runtime 1.19.0 (put in the local Maven repository by the build) in a runner process beside this process's 1.29.0,
 * on a real model: the same outputs, its own version in provenance, and the native libraries never in one process.
 */
class ProcessRuntimeProviderTest {
    static final String OLDER = "1.19.0";
    @TempDir
    static Path dir;
    static ModelSpec spec;
    static BackendProvider runner;

    @BeforeAll
    static void start() throws Exception {
        spec = TinyOnnx.write(TinyOnnx.mlp(4, 16, 3, 2, 11L), dir, "mlp");
        runner = ServiceLoader.load(RuntimeVersionProviders.class).findFirst().orElseThrow().at(OLDER);
    }

    @AfterAll
    static void stop() {
        if (runner != null) {
            runner.close();
        }
    }

    private static ModelCase input() {
        return new ModelCase(spec, "test", List.of(NamedTensor.ofFloats("x", new long[] {2, 4}, new float[] {1, -2, 3, 0.5f,
                -1, 0.25f, 2, -3})), Optional.empty());
    }

    @Test
    void anOlderOnnxRuntimeRunsInItsOwnProcessAndComputesTheSameOutputs() {
        assertThat(runner.runtimeVersion()).contains(OLDER);
        assertThat(new DjlOnnxRuntimeProvider().runtimeVersion()).isPresent().get().isNotEqualTo(OLDER); // this process's own
        assertThat(runner.probe(BackendId.CPU).available()).isTrue();
        Execution there = runner.execute(new ExecutionRequest(BackendId.CPU, input(), 1, 3, Duration.ofMinutes(1)));
        Execution here = new DjlOnnxRuntimeProvider().execute(new ExecutionRequest(BackendId.CPU, input(), 0, 1, Duration.ofMinutes(1)));
        assertThat(there.provenance().runtimeVersions()).containsEntry("onnxruntime", OLDER);
        assertThat(there.timings().iterations()).isEqualTo(3);
        assertThat(there.timings().p50Ms()).isPositive();
        // found when tried: 1.19's Java API hands outputs in a buffer that says BIG_ENDIAN, and every element came back
        // byte-swapped (max abs err 1e34) while the runtime had computed them right
        Parity p = Parity.compare(here.outputs(), there.outputs(), 1e-5, "onnxruntime 1.29.0");
        assertThat(p.within()).as("%s", p).isTrue();
    }

    @Test
    void aModelNewerThanTheRuntimesFormatIsUnsupportedNotFailed() {
        // found when tried: ONNX Runtime 1.19's "Unsupported model IR version: 11, max supported IR version: 10" on an
        // opset-23 model was FAILED ("could not be loaded ... check that the file is a complete ONNX model")
        ModelCase attention = dev.accelbridge.suites.SuiteCatalog.create(new dev.accelbridge.suites.SuiteOptions(dir,
                        dev.accelbridge.suites.ModelSize.SMALL, dev.accelbridge.suites.SuiteOptions.DEFAULT_SEED))
                .cases(dev.accelbridge.core.ModelFamily.OPS).stream().filter(c -> c.model().name().equals("Attention-23-f32.4d"))
                .findFirst().orElseThrow();
        assertThatThrownBy(() -> runner.execute(new ExecutionRequest(BackendId.CPU, attention, 0, 1, Duration.ofMinutes(1))))
                .isInstanceOfSatisfying(dev.accelbridge.core.UnsupportedModelException.class, e -> assertThat(e.getMessage())
                        .contains("Unsupported model IR version", "ONNX Runtime " + OLDER + " runner process"));
        // this process's runtime runs it
        assertThat(new DjlOnnxRuntimeProvider().execute(new ExecutionRequest(BackendId.CPU, attention, 0, 1, Duration.ofMinutes(1)))
                .outputs()).isNotEmpty();
    }

    @Test
    void aVersionTheRepositoryDoesNotHaveIsUnavailableWithTheReason() throws Exception {
        // a repository on loopback that has nothing: the version is named, with what the repository answered
        com.sun.net.httpserver.HttpServer repo = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0), 0);
        repo.createContext("/", x -> {
            x.sendResponseHeaders(404, -1);
            x.close();
        });
        repo.start();
        System.setProperty("accelbridge.maven.repo", "http://127.0.0.1:" + repo.getAddress().getPort() + "/maven2/");
        try {
            assertThatThrownBy(() -> OrtJars.defaults().jar("0.0.1")).isInstanceOf(BackendUnavailableException.class)
                    .hasMessageContaining("ONNX Runtime 0.0.1 is not published").hasMessageContaining("HTTP 404");
        } finally {
            System.clearProperty("accelbridge.maven.repo");
            repo.stop(0);
        }
    }
}
