package dev.accelbridge.bridge.archfixture.upper;

import java.util.function.Supplier;

/** Names lower's unpublished type inline only inside a lambda's body (compiled to a synthetic method). */
final class InlineInLambda {
    private InlineInLambda() {
    }

    static Supplier<String> name() {
        return () -> dev.accelbridge.bridge.archfixture.lower.Hidden.name();
    }
}
