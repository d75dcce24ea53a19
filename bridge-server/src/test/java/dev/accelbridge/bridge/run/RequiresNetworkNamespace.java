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
 * A test that puts a part on another host: a second network namespace ({@link NetworkNamespace}). Disabled, with the
 * reason, where namespaces cannot be made here.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(RequiresNetworkNamespace.Condition.class)
public @interface RequiresNetworkNamespace {
    /** Evaluates {@link RequiresNetworkNamespace}. */
    final class Condition implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            String why = NetworkNamespace.unavailable();
            return why == null ? ConditionEvaluationResult.enabled("network namespaces can be made here")
                    : ConditionEvaluationResult.disabled(why);
        }
    }
}
