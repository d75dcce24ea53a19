package dev.accelbridge.nativerunner.process;

import dev.accelbridge.core.Dimension;
import dev.accelbridge.core.LaneSide;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.VersionAxis;
import dev.accelbridge.core.VersionOrder;
import dev.accelbridge.nativerunner.DjlOnnxRuntimeProvider;

import java.util.List;
import java.util.Map;

/**
 * ONNX Runtime's version in the native lane ({@code --ort 1.22.0,1.29.0}): published on Maven Central; the version this
 * process loaded runs in process, any other in a runner process of its own ({@link OrtVersionProviders}).
 */
@PublicApi
public final class OrtAxis implements VersionAxis {
    /** Its dimension ({@code ortVersion}, column {@code ort_version}, written {@code +ort@1.29.0} in a lane's key). */
    public static final Dimension<String> DIMENSION = Dimension.version("ortVersion", "ONNX Runtime version", "--ort", "ort");

    @Override
    public Dimension<String> dimension() {
        return DIMENSION;
    }

    @Override
    public String subject() {
        return "ONNX Runtime";
    }

    @Override
    public String recordedAs() {
        return "onnxruntime";
    }

    @Override
    public LaneSide side() {
        return LaneSide.NATIVE;
    }

    @Override
    public int order() {
        return 20;
    }

    /** The version this process loaded (loads the engine on first use). */
    @Override
    public String pinned() {
        return DjlOnnxRuntimeProvider.environment().ortVersion();
    }

    @Override
    public List<String> published() {
        return new OrtVersionProviders().published().stream().distinct().sorted(VersionOrder.ASCENDING).toList();
    }

    @Override
    public List<String> atHand() {
        return new OrtVersionProviders().installed().stream().distinct().sorted(VersionOrder.ASCENDING).toList();
    }

    @Override
    public Map<String, String> obtainable(List<String> versions) {
        return new OrtVersionProviders().obtainable(versions);
    }
}
