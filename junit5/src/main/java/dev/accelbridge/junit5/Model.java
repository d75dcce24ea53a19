package dev.accelbridge.junit5;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The model a {@link Backends} method runs (on the method, else on the class): a folder or {@code .onnx} file, as
 * {@code accelbridge run --model} takes it (an Optimum export, the ONNX test-data layout, a folder with its
 * {@code accelbridge.json}), relative to the working directory; or a built-in suite ({@code suite = "vision"}).
 * Exactly one of the two.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface Model {
    /** A model folder or file. */
    String value() default "";

    /** A built-in suite: text, vision or audio. */
    String suite() default "";
}
