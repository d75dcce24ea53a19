package dev.accelbridge.junit5;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The onnxruntime-web engine the browser backends of a {@link Backends} method run on (on the method, else on the class;
 * default {@code jsep}): {@code jsep}, {@code webgpu-ep} (the native WebGPU EP, what transformers.js v4 loads) or
 * {@code webgpu-ep-jspi}. A release without that engine makes its invocations aborted, naming what it ships.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface Engine {
    /** The engine's id, as {@code run --engines} takes it. */
    String value();
}
