package dev.accelbridge.browser.observe;

import dev.accelbridge.core.PublicApi;

/**
 * One thing {@code accelbridge observe} does in the user's page after it opens, as a user would: click an element, or
 * type into a field. The sessions the app makes after a step are said to be triggered by it.
 */
@PublicApi
public sealed interface AppStep permits AppStep.Click, AppStep.Fill {
    /** How a step is named in results: {@code click #run}, {@code fill #query}. */
    String label();

    /** Clicks the element {@code selector} finds (a Playwright selector), once it is there and enabled. */
    record Click(String selector) implements AppStep {
        @Override
        public String label() {
            return "click " + selector;
        }
    }

    /** Types {@code text} into the field {@code selector} finds. */
    record Fill(String selector, String text) implements AppStep {
        @Override
        public String label() {
            return "fill " + selector;
        }
    }
}
