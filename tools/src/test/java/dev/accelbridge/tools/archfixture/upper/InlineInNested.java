package dev.accelbridge.tools.archfixture.upper;

/** Names lower's unpublished type inline only inside a nested class (a class file of its own). */
final class InlineInNested {
    private InlineInNested() {
    }

    static final class Inner {
        String name() {
            return dev.accelbridge.tools.archfixture.lower.Hidden.name();
        }
    }
}
