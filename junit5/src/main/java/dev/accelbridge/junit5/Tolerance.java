package dev.accelbridge.junit5;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The absolute tolerance every float output is judged by against the native CPU reference (as {@code --tolerance};
 * integer outputs stay exact). Without it, each backend's default applies (cpu and wasm 1e-4, GPU-class 1e-3, half
 * precision 0.1), or the model folder's {@code accelbridge.json}.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface Tolerance {
    /** The absolute bound, positive. */
    double value();
}
