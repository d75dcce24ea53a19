package dev.accelbridge.junit5;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The browsers that run the browser backends of a {@link Backends} method (on the method, else on the class; default
 * {@code chromium}): chromium, chromium-shell, chrome, firefox, edge, webkit. A browser not installed here makes its invocations
 * aborted, with where it was looked for.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface Browsers {
    /** Browser ids. */
    String[] value();
}
