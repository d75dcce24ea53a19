package dev.accelbridge.tools.archfixture.lower;

import dev.accelbridge.core.PublicApi;

/** Published by its mark. */
@PublicApi("the fixture's published type")
public final class Shared {
    private Shared() {
    }

    public static String name() {
        return "shared";
    }

    /** A nested type of a published one: published with it. */
    public record Part(String name) {
    }
}
