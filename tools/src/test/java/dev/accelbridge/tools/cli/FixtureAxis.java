package dev.accelbridge.tools.cli;

import dev.accelbridge.core.Dimension;
import dev.accelbridge.core.VersionAxis;

import java.util.List;

/**
 * A version axis this module's tests register ({@code src/test/resources/META-INF/services}) and nothing else declares:
 * what a new axis is, to show the sweep, the store, the JSON, compare, the report and the bisection follow a declaration.
 * Its versions label a browser lane and change nothing the page runs, so every version's verdict is the same; a lane
 * carries one only when a plan names it (no pinned version), so the other tests' lanes are untouched.
 */
public final class FixtureAxis implements VersionAxis {
    static final Dimension<String> DIMENSION = Dimension.version("fixtureVersion", "test fixture version", null, "fixture");

    @Override
    public Dimension<String> dimension() {
        return DIMENSION;
    }

    @Override
    public String subject() {
        return "test fixture";
    }

    @Override
    public dev.accelbridge.core.LaneSide side() {
        return dev.accelbridge.core.LaneSide.BROWSER;
    }

    @Override
    public int order() {
        return 50;
    }

    @Override
    public List<String> published() {
        return List.of("1", "2", "3");
    }

    @Override
    public List<String> atHand() {
        return List.of("1", "2", "3");
    }
}
