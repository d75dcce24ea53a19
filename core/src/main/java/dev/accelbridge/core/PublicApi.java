package dev.accelbridge.core;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Marks a type another module (or a user) may build on, in the manner of JUnit's {@code @API}: a module's published
 * surface outside its {@code api} package. Everything of a module that is neither in {@code dev.accelbridge.core}, in
 * a package named {@code api}, nor marked so is the module's own; the architecture test refuses an import of it from
 * another module.
 */
@Documented
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
public @interface PublicApi {
    /** Why this type is published, in a few words (who builds on it). */
    String value() default "";
}
