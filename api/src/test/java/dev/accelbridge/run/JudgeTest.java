package dev.accelbridge.run;

import dev.accelbridge.core.DType;
import dev.accelbridge.core.DecoderLayout;
import dev.accelbridge.core.Generation;
import dev.accelbridge.core.Scenario;
import org.junit.jupiter.api.Test;

import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** The api's one dispatch on a case's scenario: each kind has its judge. */
class JudgeTest {
    @Test
    void eachScenarioKindIsJudgedByItsOwnJudge() {
        DecoderLayout layout = new DecoderLayout("input_ids", null, null, "logits",
                List.of(new DecoderLayout.Cache("past_key_values.0.key", "present.0.key")), 2, 4, DType.FLOAT32, 32);
        assertThat(Judge.of(Scenario.SINGLE_PASS)).isInstanceOf(SinglePassJudge.class);
        assertThat(Judge.of(Generation.of(8, layout))).isInstanceOf(GenerationJudge.class);
    }
}
