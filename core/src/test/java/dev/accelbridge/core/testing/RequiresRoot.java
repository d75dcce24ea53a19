package dev.accelbridge.core.testing;

import dev.accelbridge.core.fetch.Ownership;

import org.junit.jupiter.api.extension.ConditionEvaluationResult;
import org.junit.jupiter.api.extension.ExecutionCondition;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.ExtensionContext;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/** Runs a test only as root on a file system with Unix owners: only root can give a file to another user. */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@ExtendWith(RequiresRoot.Condition.class)
public @interface RequiresRoot {
    /** The condition. */
    final class Condition implements ExecutionCondition {
        /** Used by JUnit. */
        public Condition() {
        }

        @Override
        public ConditionEvaluationResult evaluateExecutionCondition(ExtensionContext context) {
            try {
                if (!Ownership.unix()) {
                    return ConditionEvaluationResult.disabled("this file system has no Unix owners");
                }
                int uid = Ownership.currentUid();
                return uid == 0 ? ConditionEvaluationResult.enabled("running as root")
                        : ConditionEvaluationResult.disabled("not root (uid " + uid + "): only root can make a file of another user's");
            } catch (java.io.IOException e) {
                return ConditionEvaluationResult.disabled("cannot tell which user this is: " + e.getMessage());
            }
        }
    }
}
