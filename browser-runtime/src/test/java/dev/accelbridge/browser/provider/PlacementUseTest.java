package dev.accelbridge.browser.provider;

import dev.accelbridge.bridge.SuiteFixtures;
import dev.accelbridge.bridge.hub.ExecutionProviderSpec;
import dev.accelbridge.bridge.hub.SessionUse;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.CaseProgress;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.MinDurations;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.core.SamplingDepth;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import java.time.Duration;

import static org.assertj.core.api.Assertions.assertThat;

/** How a case's session is made: its placement checked where it is not known, its nodes listed only where figures are settled. */
class PlacementUseTest {
    private static ExecutionRequest request(BackendId backend, SamplingDepth depth) {
        ModelCase c = SuiteFixtures.cases(ModelFamily.TEXT).get(0);
        return new ExecutionRequest(backend, c, 1, 3, Duration.ofSeconds(30), null, null, 0, 0, CaseProgress.NONE, MinDurations.NONE, depth);
    }

    @ParameterizedTest
    @EnumSource(value = OrtWebEngine.class, names = {"JSEP", "WEBGPU_EP"})
    void aVerdictsWindowChecksWhereTheNodesRanAndListsThemOnlyWhereFiguresAreSettled(OrtWebEngine engine) {
        ExecutionProviderSpec gpu = ExecutionProviderSpec.of(BackendId.WEBGPU, engine);
        assertThat(SentCase.placementUse(gpu, request(BackendId.WEBGPU, SamplingDepth.VERDICT))).isEqualTo(SessionUse.PLACEMENT_CHECKED);
        assertThat(SentCase.placementUse(gpu, request(BackendId.WEBGPU, SamplingDepth.FULL))).isEqualTo(SessionUse.PLACEMENT_LISTED);
        assertThat(SessionUse.PLACEMENT_CHECKED.checksPlacement()).isTrue();
        assertThat(SessionUse.PLACEMENT_LISTED.checksPlacement()).isTrue();
        assertThat(SessionUse.TIMED.checksPlacement()).isFalse();
    }

    @ParameterizedTest
    @EnumSource(value = SamplingDepth.class)
    void wasmsPlacementIsKnownWithoutACheck(SamplingDepth depth) {
        assertThat(SentCase.placementUse(ExecutionProviderSpec.of(BackendId.WASM), request(BackendId.WASM, depth))).isEqualTo(SessionUse.TIMED);
    }
}
