package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import java.time.Duration;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Who gets the verdict's window: decided once from the probe, cut once in the request. */
class SamplingDepthTest {
    private static final ModelCase MC = new ModelCase(new ModelSpec(ModelFamily.TEXT, "m", java.nio.file.Path.of("m.onnx"), "ab", 17, 1,
            List.of(), List.of(), List.of(), "t", Double.NaN), "x", List.of(), java.util.Optional.empty());
    private static final MinDurations HALF_SECOND = new MinDurations(Duration.ofMillis(500), Duration.ofMillis(500));

    private static ExecutionRequest request(SamplingDepth d) {
        return new ExecutionRequest(BackendId.WEBGPU, MC, 3, 10, Duration.ofMinutes(1), null, null, 0, 0, null, HALF_SECOND, d);
    }

    @Test
    void autoIsTheVerdictOnASoftwareAdapterAndTheFullRuleElsewhere() {
        Availability swiftShader = Availability.availableInSoftware(BackendId.WEBGPU, "adapter google swiftshader", "chromium");
        Availability gpu = Availability.available(BackendId.WEBGPU, "adapter nvidia", "chromium");
        assertThat(SamplingDepth.AUTO.on(swiftShader)).isEqualTo(SamplingDepth.VERDICT);
        assertThat(SamplingDepth.AUTO.on(gpu)).isEqualTo(SamplingDepth.FULL);
        assertThat(SamplingDepth.AUTO.on(null)).as("no probe: nothing said software").isEqualTo(SamplingDepth.FULL);
        assertThat(SamplingDepth.FULL.on(swiftShader)).isEqualTo(SamplingDepth.FULL);
        assertThat(SamplingDepth.VERDICT.on(gpu)).isEqualTo(SamplingDepth.VERDICT);
    }

    @Test
    void theVerdictsWindowIsCutInTheRequestOnce() {
        ExecutionRequest v = request(SamplingDepth.VERDICT);
        assertThat(v.warmups()).isZero();
        assertThat(v.iterations()).isEqualTo(SamplingDepth.WINDOW_RUNS);
        assertThat(v.durations()).isEqualTo(MinDurations.NONE);
        assertThat(v.verdictWindow()).isTrue();
        assertThat(v.withProgress(CaseProgress.NONE).verdictWindow()).as("kept by every copy").isTrue();
        ExecutionRequest full = request(SamplingDepth.FULL);
        assertThat(full.warmups()).isEqualTo(3);
        assertThat(full.iterations()).isEqualTo(10);
        assertThat(full.durations()).isEqualTo(HALF_SECOND);
        assertThat(full.verdictWindow()).isFalse();
        assertThat(new ExecutionRequest(BackendId.WEBGPU, MC, 0, 1, Duration.ofMinutes(1), null, null, 0, 0, null, null,
                SamplingDepth.VERDICT).iterations()).as("fewer runs asked stay fewer").isEqualTo(1);
    }

    @Test
    void anExecutionOfTheWindowIsMarkedIndicative() {
        Execution e = new Execution(List.of(), Timings.of(1, 1, 0, new double[]{1, 1, 1}), MemoryUsage.UNKNOWN, null, List.of());
        assertThat(e.sampledBy(request(SamplingDepth.VERDICT)).timings().quality().verdictWindow()).isTrue();
        assertThat(e.sampledBy(request(SamplingDepth.FULL)).timings().quality().verdictWindow()).isFalse();
    }

    @Test
    void parsesItsThreeWordsAndNamesTheFixOtherwise() {
        assertThat(SamplingDepth.parse("Full")).isEqualTo(SamplingDepth.FULL);
        assertThat(SamplingDepth.parse("verdict")).isEqualTo(SamplingDepth.VERDICT);
        assertThatThrownBy(() -> SamplingDepth.parse("fast")).hasMessageContaining("Unknown sampling 'fast'");
    }
}
