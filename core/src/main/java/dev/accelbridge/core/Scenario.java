package dev.accelbridge.core;

import java.util.List;

/**
 * What a case does with its model: one forward pass ({@link SinglePass}), or greedy decoding after a prompt
 * ({@link Generation}). The kinds are closed, and each layer tells them apart in one place, through {@link #accept}: how
 * a case is judged (api), how each side runs it (the native runner, the browser provider), which job the page runs. A new
 * scenario is one more implementation here and one more method of {@link Cases}, which the compiler then asks of every
 * one of those places, and of nothing else.
 */
public sealed interface Scenario permits Scenario.SinglePass, Generation {
    /** One forward pass: what a case is unless it says otherwise. */
    SinglePass SINGLE_PASS = new SinglePass();

    /** The cell a case of this scenario fed {@code inputs} makes: the {@link Dimensions#SCENARIO} dimension's value. */
    ScenarioId id(List<NamedTensor> inputs);

    /**
     * True when a case may be swept to another batch size by resizing its inputs; a generation decodes one prompt.
     */
    boolean batchable();

    /**
     * The outputs a case of this scenario feeds back into the model's next run (a generation's present KV cache): where a
     * runtime can keep outputs on its device, these stay there. None for a single pass.
     */
    List<String> fedBack();

    /**
     * The same scenario on another form of its model (a converted variant, an fp16 graph): fed as {@code model}'s graph
     * says, judged against a reference that has not run yet.
     */
    Scenario on(ModelSpec model);

    /** The one dispatch: {@code cases}'s method for this kind. */
    <R> R accept(Cases<R> cases);

    /**
     * One method per kind of scenario: what a layer does for each. Implemented once per layer, so adding a kind is a
     * compile error in exactly the places that must learn it.
     *
     * @param <R> what the layer makes of a case
     */
    interface Cases<R> {
        /** One forward pass. */
        R singlePass(SinglePass s);

        /** Greedy decoding after a prompt. */
        R generation(Generation g);
    }

    /** One forward pass of the model over the case's inputs. */
    record SinglePass() implements Scenario {
        @Override
        public ScenarioId id(List<NamedTensor> inputs) {
            return ScenarioId.SINGLE_PASS;
        }

        @Override
        public boolean batchable() {
            return true;
        }

        @Override
        public List<String> fedBack() {
            return List.of();
        }

        @Override
        public Scenario on(ModelSpec model) {
            return this;
        }

        @Override
        public <R> R accept(Cases<R> cases) {
            return cases.singlePass(this);
        }

        @Override
        public String toString() {
            return ScenarioId.SINGLE_PASS.id();
        }
    }
}
