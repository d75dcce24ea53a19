package dev.accelbridge.tools.cli;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * The heading an options group ({@code CommonOptions}, {@code WorkloadOptions}, ...) has in a command's help, said once on
 * the group: {@link OptionSections} lists each group's options under it, so {@code run --help} reads in rooms.
 */
@Retention(RetentionPolicy.RUNTIME)
@Target(ElementType.TYPE)
@interface OptionSection {
    /** The heading, e.g. "What runs". */
    String value();
}
