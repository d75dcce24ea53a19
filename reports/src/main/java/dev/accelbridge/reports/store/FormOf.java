package dev.accelbridge.reports.store;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A record component that holds, as JSON already made, the form of another record with its case's dimensions put in
 * ({@link ResultJson#withCase}): what the generated schema describes it as. The writer gives no meaning to it.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.FIELD, ElementType.METHOD, ElementType.PARAMETER})
public @interface FormOf {
    /** The record whose form each value is. */
    Class<? extends Record> value();
}
