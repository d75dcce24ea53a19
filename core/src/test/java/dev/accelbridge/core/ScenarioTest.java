package dev.accelbridge.core;

import org.junit.jupiter.api.Test;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/** The scenario kinds, what each makes of a case's inputs, and the one dispatch that every layer implements. */
class ScenarioTest {
    private static final DecoderLayout LAYOUT = new DecoderLayout("input_ids", null, null, "logits",
            List.of(new DecoderLayout.Cache("past_key_values.0.key", "present.0.key")), 2, 4, DType.FLOAT32, 32);

    @Test
    void eachKindMakesItsCellFromTheInputsAndSaysWhetherItMayBeBatched() {
        List<NamedTensor> prompt = List.of(NamedTensor.ofLongs("input_ids", new long[] {1, 5}, new long[] {1, 2, 3, 4, 5}));
        Generation g = Generation.of(16, LAYOUT);
        assertThat(g.id(prompt)).isEqualTo(ScenarioId.generate(5, 16));
        assertThat(Scenario.SINGLE_PASS.id(prompt)).isEqualTo(ScenarioId.SINGLE_PASS);
        assertThat(g.batchable()).isFalse();
        assertThat(Scenario.SINGLE_PASS.batchable()).isTrue();
    }

    @Test
    void aCaseWithoutAScenarioIsASinglePassNeverNull() {
        ModelCase mc = new ModelCase(null, "x", List.of(), java.util.Optional.empty(), null, null, null, null, null);
        assertThat(mc.scenario()).isSameAs(Scenario.SINGLE_PASS);
        assertThat(mc.scenarioId()).isEqualTo(ScenarioId.SINGLE_PASS);
    }

    @Test
    void theDispatchNamesEveryKindOnceSoAFourthLayerCannotForgetOne() {
        Set<Class<?>> kinds = Arrays.stream(Scenario.class.getPermittedSubclasses()).collect(Collectors.toSet());
        Set<Class<?>> handled = Arrays.stream(Scenario.Cases.class.getDeclaredMethods()).map(Method::getParameterTypes)
                .peek(p -> assertThat(p).hasSize(1)).map(p -> p[0]).collect(Collectors.toSet());
        assertThat(handled).isEqualTo(kinds);
        // and each kind answers with its own method
        Scenario.Cases<String> names = new Scenario.Cases<>() {
            @Override
            public String singlePass(Scenario.SinglePass s) {
                return "single";
            }

            @Override
            public String generation(Generation g) {
                return "generation";
            }
        };
        assertThat(Scenario.SINGLE_PASS.accept(names)).isEqualTo("single");
        assertThat(Generation.of(4, LAYOUT).accept(names)).isEqualTo("generation");
    }
}
