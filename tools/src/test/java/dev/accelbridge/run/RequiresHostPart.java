package dev.accelbridge.run;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.platform.commons.support.AnnotationSupport;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.util.function.Supplier;

/**
 * A test that needs parts of this host beyond a browser: disabled, with the first part's reason, where one cannot be had
 * here.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(RequiresHostPart.Condition.class)
public @interface RequiresHostPart {
    /** The parts the test needs. */
    Part[] value();

    /** A part of the host, and why it cannot be had here (null when it can). */
    enum Part {
        /** A real Selenium Grid ({@link SeleniumGrid}): Chromium and ChromeDriver at their Debian paths, grid-runtime built. */
        GRID(SeleniumGrid::unavailable),
        /** A second network namespace, "another host" ({@link NetworkNamespace}). */
        NETWORK_NAMESPACE(NetworkNamespace::unavailable);

        private final Supplier<String> unavailable;

        Part(Supplier<String> unavailable) {
            this.unavailable = unavailable;
        }
    }

    /** Evaluates {@link RequiresHostPart} on the test and on its class. */
    final class Condition implements ExecutionCondition {
        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            var on = context.getElement().flatMap(e -> AnnotationSupport.findAnnotation(e, RequiresHostPart.class));
            for (Part p : on.map(RequiresHostPart::value).orElse(new Part[0])) {
                String why = p.unavailable.get();
                if (why != null) {
                    return ConditionEvaluationResult.disabled(why);
                }
            }
            return ConditionEvaluationResult.enabled("the host has the parts the test needs");
        }
    }
}
