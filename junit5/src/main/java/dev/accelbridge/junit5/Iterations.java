package dev.accelbridge.junit5;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Timed and warm-up iterations per case (on the method, else on the class). As with {@code accelbridge run -n N
 * --warmups W}, counts given are the counts that run: no least duration unless one is given here.
 */
@Target({ElementType.TYPE, ElementType.METHOD})
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Inherited
public @interface Iterations {
    /** Timed iterations, at least 1. */
    int value() default 10;

    /** Warm-up iterations, at least 0. */
    int warmups() default 3;

    /**
     * Seconds the timed iterations go on for at least ({@code accelbridge run --min-duration}); negative or 0: exactly
     * {@link #value()} iterations.
     */
    double minDuration() default -1;

    /**
     * Seconds the warm-ups go on for at least ({@code accelbridge run --warmup-duration}), then until the runs stop
     * getting faster; negative or 0: exactly {@link #warmups()}.
     */
    double warmupDuration() default -1;

    /**
     * How far sampling goes ({@code accelbridge run --sampling}): {@code "auto"} (a software adapter's cases run for their
     * verdict, everything else is settled), {@code "full"} or {@code "verdict"}.
     */
    String sampling() default "auto";
}
