package dev.accelbridge.browser.launch;

import dev.accelbridge.browser.npm.NpmRegistry;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.Dimension;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.LaneSide;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.Untrusted;
import dev.accelbridge.core.VersionAxis;
import dev.accelbridge.core.VersionOrder;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * A browser's major version ({@code 153}), written within the browser's option ({@code --browser chromium-shell@141}). The
 * headless shell comes at any major {@code @sparticuz/chromium} publishes; another browser only at the one installed, so a
 * lane finds its major when it launches. A record from before it was a dimension takes its provenance's build major (the
 * store's migration 9 and the export's step 8).
 */
@PublicApi
public final class BrowserMajorAxis implements VersionAxis {
    /** Its dimension ({@code browserMajor}, column {@code browser_major}). */
    public static final Dimension<String> DIMENSION = Dimension.version("browserMajor", "browser version", "--browser", "browser-version");

    @Override
    public Dimension<String> dimension() {
        return DIMENSION;
    }

    @Override
    public String subject() {
        return "Chromium (headless shell)";
    }

    @Override
    public LaneSide side() {
        return LaneSide.BROWSER;
    }

    @Override
    public int order() {
        return 0;
    }

    @Override
    public String keyPart(String v) {
        return "@" + v;
    }

    @Override
    public void check(String v) {
        if (!v.matches("\\d+(\\.\\d+)?")) {
            throw new AccelbridgeException("A browser's version in a lane is its release: the major version (153), WebKitGTK's "
                    + "major and minor (2.50); got " + Untrusted.quote(v), "give the release, e.g. chromium-shell@153 or webkit@2.50");
        }
    }

    /** Only the headless shell comes at any major. */
    @Override
    public LaneId take(LaneId lane, String v) {
        if (lane.browser() != BrowserKind.CHROMIUM_SHELL) {
            throw new AccelbridgeException("Only the headless shell comes at any Chromium major, not " + lane.id(),
                    "bisect --browser chromium-shell@GOOD..BAD");
        }
        return lane.with(this, v);
    }

    @Override
    public boolean onlyReleases() {
        return true;
    }

    @Override
    public List<String> published() {
        return BrowserDiscovery.publishedShellMajors();
    }

    @Override
    public List<String> atHand() {
        Set<String> out = new LinkedHashSet<>();
        BrowserDiscovery.find(BrowserKind.CHROMIUM_SHELL).ifPresent(b -> out.add(LaneId.majorOf(b.version())));
        NpmRegistry.installedVersions("@sparticuz/chromium").forEach(v -> out.add(LaneId.majorOf(v)));
        return out.stream().filter(java.util.Objects::nonNull).sorted(VersionOrder.ASCENDING).toList();
    }
}
