package dev.accelbridge.bridge.run;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test that starts a real Selenium Grid ({@link SeleniumGrid}): disabled, with the reason, where one cannot start here
 * (no Chromium or ChromeDriver at their Debian paths, or the grid-runtime module not built).
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(RequiresGrid.Condition.class)
public @interface RequiresGrid {
    /** Evaluates {@link RequiresGrid}. */
    final class Condition implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            String why = SeleniumGrid.unavailable();
            return why == null ? ConditionEvaluationResult.enabled("a Grid can start here") : ConditionEvaluationResult.disabled(why);
        }
    }
}
