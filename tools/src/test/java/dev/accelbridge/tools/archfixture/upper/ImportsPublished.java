package dev.accelbridge.tools.archfixture.upper;

import dev.accelbridge.tools.archfixture.lower.Shared;
import dev.accelbridge.tools.archfixture.lower.api.Door;

import java.util.function.Supplier;

/** Reaches lower only through what lower publishes: imports, a lambda and a nested type included. */
public final class ImportsPublished {
    String names() {
        Supplier<String> door = () -> new Door().open();
        return Shared.name() + door.get() + new Shared.Part("p").name()
                + dev.accelbridge.tools.archfixture.lower.Shared.name(); // inline, and published: allowed
    }
}
