package dev.accelbridge.browser.provider;

import dev.accelbridge.bridge.hub.PageJobException;
import dev.accelbridge.bridge.ModelRegistry;


import dev.accelbridge.core.BackendException.Phase;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.NamedTensor;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What a failed page job leaves for the next case, and the check that decides it after a failed inference. Pure. */
class PageAftermathTest {
    @Test
    void aSessionOnnxruntimeWebRefusedCleanlyKeepsThePageAndOneThatThrewDoesNot() {
        // returned statuses: the model was read and checked, no kernel ran
        assertThat(PageFailures.afterPageError("Error: Can't create a session. ERROR_CODE: 9, ERROR_MESSAGE: Could not find an "
                + "implementation for GlobalLpPool(22) node with name 'GlobalLpPool'", Phase.LOAD)).isEqualTo(PageFailures.Then.NEXT_CASE);
        assertThat(PageFailures.afterPageError("Can't create a session. ERROR_CODE: 7, ERROR_MESSAGE: Failed to load model because "
                + "protobuf parsing failed.", Phase.LOAD)).isEqualTo(PageFailures.Then.NEXT_CASE);
        assertThat(PageFailures.afterPageError("Can't create a session. ERROR_CODE: 10, ERROR_MESSAGE: This is an invalid model.",
                Phase.LOAD)).isEqualTo(PageFailures.Then.NEXT_CASE);
        // a C++ exception on the way (an enforce, WebNN's raw_hash_map::at) may have left the module broken
        assertThat(PageFailures.afterPageError("Can't create a session. ERROR_CODE: 1, ERROR_MESSAGE: transformer_memcpy.cc:254 "
                + "IsNodeCompatibleWithProvider !node_provider_type.empty()", Phase.LOAD)).isEqualTo(PageFailures.Then.FRESH_PAGE);
        assertThat(PageFailures.afterPageError("Can't create a session. ERROR_CODE: 6, ERROR_MESSAGE: raw_hash_map<>::at", Phase.LOAD))
                .isEqualTo(PageFailures.Then.FRESH_PAGE);
        assertThat(PageFailures.afterPageError("TypeError: something in the page's own code", Phase.LOAD)).isEqualTo(PageFailures.Then.FRESH_PAGE);
        // the words alone, outside onnxruntime-web's own sentence, are not a clean refusal
        assertThat(PageFailures.afterPageError("ERROR_CODE: 9, in a message of another kind", Phase.LOAD)).isEqualTo(PageFailures.Then.FRESH_PAGE);
    }

    @Test
    void aFailedInferenceAsksForTheCheckAndMemoryRunOutForAFreshPage() {
        assertThat(PageFailures.afterPageError("[WebGPU] Kernel \"[Conv] Conv_token_1\" failed. Error: dilations should be 2D", Phase.RUN))
                .isEqualTo(PageFailures.Then.CHECK_PAGE);
        assertThat(PageFailures.afterPageError("Can't create a session. ERROR_CODE: 9, ...", Phase.RUN)).isEqualTo(PageFailures.Then.CHECK_PAGE);
        assertThat(PageFailures.afterPageError("RuntimeError: memory access out of bounds", Phase.RUN)).isEqualTo(PageFailures.Then.FRESH_PAGE);
        assertThat(PageFailures.afterPageError("Aborted(OOM)", Phase.LOAD)).isEqualTo(PageFailures.Then.FRESH_PAGE);
        // a buffer the device refused: its GPU process is not trusted either (the next case in a fresh page waited 33 s)
        var refused = java.util.Optional.of(new PageJobException.RefusedBuffer(1073745920L, "maxBufferSize", 1073741824L));
        for (Phase p : new Phase[] {Phase.LOAD, Phase.RUN}) {
            assertThat(PageFailures.afterPageError(new PageJobException(PageJobException.Kind.PAGE_ERROR, "run-failed",
                    "Error: the run returned outputs computed with a buffer the device refused", refused), p)).isEqualTo(PageFailures.Then.RESTART);
        }
        assertThat(PageFailures.afterPageError(new PageJobException(PageJobException.Kind.PAGE_ERROR, "run-failed",
                "a WebGPU buffer of 1 bytes was asked for, above the device's maxBufferSize of 0 bytes; ", java.util.Optional.empty()),
                Phase.RUN)).as("the page's numbers decide, never its words").isEqualTo(PageFailures.Then.CHECK_PAGE);
    }

    @Test
    void theChecksAnswerIsExactAndAnythingElseIsNot() {
        // Relu(Transpose([[1,-2,3],[0,4,-1]] x [[2,0],[1,-1],[3,1]] + [-4,6])) = Relu([[5,-3],[11,1]])
        assertThat(PageCheck.EXPECTED).containsExactly(5f, 0f, 11f, 1f);
        assertThat(PageCheck.verdict(List.of(NamedTensor.ofFloats("y", new long[] {2, 2}, new float[] {5, 0, 11, 1})))).isEmpty();
        assertThat(PageCheck.verdict(List.of(NamedTensor.ofFloats("y", new long[] {2, 2}, new float[] {5, 0, 11, 1.0000001f}))))
                .hasValueSatisfying(why -> assertThat(why).contains("is exact"));
        assertThat(PageCheck.verdict(List.of(NamedTensor.ofFloats("y", new long[] {2, 2}, new float[] {Float.NaN, 0, 11, 1})))).isPresent();
        assertThat(PageCheck.verdict(List.of())).isPresent();
        assertThat(PageCheck.verdict(List.of(new NamedTensor("y", DType.INT32, new long[] {4}, new byte[16])))).isPresent();
        assertThat(PageCheck.MODEL).isNotEmpty();
    }

    @Test
    void aSmallModelTravelsInItsLoadFrameAndALargeOneOrAFileSwappedSinceIsFetched(@TempDir Path dir) throws Exception {
        ModelRegistry registry = new ModelRegistry();
        Path small = Files.write(dir.resolve("small.onnx"), new byte[] {1, 2, 3});
        ModelRegistry.ModelRef ref = registry.register(small);
        assertThat(registry.inline(ref, false)).hasValueSatisfying(b -> assertThat(b).containsExactly(1, 2, 3));
        assertThat(registry.inline(ref, true)).as("external data: the page fetches the model and its weights").isEmpty();
        Path large = Files.write(dir.resolve("large.onnx"), new byte[ModelRegistry.INLINE_BYTES + 1]);
        assertThat(registry.inline(registry.register(large), false)).isEmpty();
        Path secret = Files.write(dir.resolve("secret.txt"), new byte[] {9});
        Files.delete(small);
        Files.createSymbolicLink(small, secret);
        assertThat(registry.inline(ref, false)).as("a path swapped for a link is not read").isEmpty();
        registry.unregister(ref);
        assertThat(registry.inline(ref, false)).isEmpty();
    }
}
