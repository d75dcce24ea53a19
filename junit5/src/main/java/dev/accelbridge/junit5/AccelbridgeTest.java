package dev.accelbridge.junit5;

import org.junit.jupiter.api.extension.ExtendWith;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * A test class that runs models through Accelbridge: registers {@link AccelbridgeExtension}, which opens one session (the
 * store, the native providers, the browsers, kept open between the class's templates) and closes it after the class,
 * or after the whole engine run with {@code scope = ENGINE} or the configuration parameter
 * {@code accelbridge.session.scope=engine}.
 */
@Target(ElementType.TYPE)
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
@ExtendWith(AccelbridgeExtension.class)
public @interface AccelbridgeTest {
    /** How long the session lives (default: the {@code accelbridge.session.scope} configuration parameter, else the class). */
    SessionScope scope() default SessionScope.DEFAULT;
}
