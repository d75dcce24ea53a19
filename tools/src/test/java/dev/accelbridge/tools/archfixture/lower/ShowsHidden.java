package dev.accelbridge.tools.archfixture.lower;

import dev.accelbridge.core.PublicApi;

import java.util.List;

/** Published, yet its signature hands out an unpublished type (in a generic argument). */
@PublicApi("the fixture's leaky published type")
public final class ShowsHidden {
    public List<Hidden> hidden() {
        return List.of();
    }
}
