package dev.accelbridge.core.testing;

import org.junit.jupiter.api.Tag;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test of the nightly tier ({@code ./mvnw -Pnightly install}; the default tier leaves it out): a breadth check users will
 * not break in a day, whose feature a test of the default tier still proves. That test is named here, and
 * {@code NightlyGuardsTest} (tools) fails where the name is not a default-tier test of the project.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Tag("nightly")
public @interface Nightly {
    /** The default-tier test that still proves this one's feature: {@code Class#method}, or {@code Class} for every test it has. */
    String guardedBy();
}
