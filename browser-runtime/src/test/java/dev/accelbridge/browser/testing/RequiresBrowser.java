package dev.accelbridge.browser.testing;

import dev.accelbridge.core.BrowserKind;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test class or method that needs these browsers installed here (as {@link dev.accelbridge.browser.launch.BrowserDiscovery}
 * finds them): disabled, with where discovery looked, where one is missing. Tagged {@value #TAG}, so the quick tier
 * ({@code ./mvnw -Pquick test}) leaves it out.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Tag(RequiresBrowser.TAG)
@ExtendWith(RequiresBrowserCondition.class)
public @interface RequiresBrowser {
    /** The tag of every test that launches a browser. */
    String TAG = "browser";

    /** The browsers the test launches. */
    BrowserKind[] value() default BrowserKind.CHROMIUM;
}
