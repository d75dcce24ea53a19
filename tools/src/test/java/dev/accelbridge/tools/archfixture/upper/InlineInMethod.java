package dev.accelbridge.tools.archfixture.upper;

/** Names lower's unpublished type inline in a method body, without an import. */
final class InlineInMethod {
    private InlineInMethod() {
    }

    static String name() {
        return dev.accelbridge.tools.archfixture.lower.Hidden.name();
    }
}
