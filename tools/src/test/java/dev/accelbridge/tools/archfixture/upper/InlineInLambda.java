package dev.accelbridge.tools.archfixture.upper;

import java.util.function.Supplier;

/** Names lower's unpublished type inline only inside a lambda's body (compiled to a synthetic method). */
final class InlineInLambda {
    private InlineInLambda() {
    }

    static Supplier<String> name() {
        return () -> dev.accelbridge.tools.archfixture.lower.Hidden.name();
    }
}
