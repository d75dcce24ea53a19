package dev.accelbridge.browser.page;

import dev.accelbridge.browser.npm.NpmRegistry;
import dev.accelbridge.core.Dimension;
import dev.accelbridge.core.LaneSide;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.VersionAxis;
import dev.accelbridge.core.VersionOrder;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * onnxruntime-web's version in a browser lane ({@code --ort-web 1.22.0,1.30.0}): published on the npm registry, fetched
 * and verified at first use ({@link OrtWebBuild#of(String)}); a lane runs the page's pinned build unless a plan names
 * another.
 */
@PublicApi
public final class OrtWebAxis implements VersionAxis {
    /** Its dimension ({@code ortWebVersion}, column {@code ort_web_version}, written {@code +ort-web@1.22.0} in a lane's key). */
    public static final Dimension<String> DIMENSION = Dimension.version("ortWebVersion", "onnxruntime-web version", "--ort-web", "ort-web");

    @Override
    public Dimension<String> dimension() {
        return DIMENSION;
    }

    @Override
    public String subject() {
        return "onnxruntime-web";
    }

    @Override
    public String recordedAs() {
        return "onnxruntime-web";
    }

    @Override
    public LaneSide side() {
        return LaneSide.BROWSER;
    }

    @Override
    public int order() {
        return 10;
    }

    @Override
    public String pinned() {
        return PageAssets.ortWebVersion();
    }

    @Override
    public List<String> published() {
        return NpmRegistry.published(OrtWebBuild.PACKAGE).stream().distinct().sorted(VersionOrder.ASCENDING).toList();
    }

    @Override
    public List<String> atHand() {
        Set<String> out = new LinkedHashSet<>();
        out.add(OrtWebBuild.pinned().version());
        out.addAll(NpmRegistry.installedVersions(OrtWebBuild.PACKAGE));
        return out.stream().sorted(VersionOrder.ASCENDING).toList();
    }
}
