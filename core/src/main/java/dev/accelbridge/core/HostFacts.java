package dev.accelbridge.core;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The names of a host's facts ({@link HostInfo#facts()}) that a page found there, declared once: its WebGPU adapter (or
 * why none), each WebNN context, whether the page ran in a secure context and cross-origin isolated. A joining device's
 * and a Grid node's facts are written under these names and read under them; facts stored under the names a refactor
 * once wrote by mistake ({@code p.webgpu().vendor}, {@code p.webnn().gpu}, {@code p.crossOriginIsolated()}) are read
 * under the right ones ({@link #named}).
 */
@PublicApi
public final class HostFacts {
    /** The adapter's vendor. */
    public static final String WEBGPU_VENDOR = "webgpu.vendor";
    /** The adapter's architecture. */
    public static final String WEBGPU_ARCHITECTURE = "webgpu.architecture";
    /** Whether the adapter is a fallback (software) one. */
    public static final String WEBGPU_FALLBACK = "webgpu.isFallbackAdapter";
    /** No adapter: why ({@code none: ...}). */
    public static final String WEBGPU_NONE = "webgpu";
    /** Each WebNN context by its device type ({@code webnn.gpu}: {@code ok} or {@code failed: ...}). */
    public static final String WEBNN_CONTEXT = "webnn.";
    /** No WebNN: why. */
    public static final String WEBNN_NONE = "webnn";
    /** Whether the page ran in a secure context. */
    public static final String SECURE_CONTEXT = "secureContext";
    /** Whether the page was cross-origin isolated. */
    public static final String CROSS_ORIGIN_ISOLATED = "crossOriginIsolated";

    /** The names once written by mistake, by their prefix, and the right one's. */
    private static final Map<String, String> MISNAMED = Map.of("p.webgpu().", "webgpu.", "p.webnn().", WEBNN_CONTEXT,
            "p.crossOriginIsolated()", CROSS_ORIGIN_ISOLATED);

    private HostFacts() {
    }

    /** {@code facts} with every misnamed key under its right name, in their order (a right name already there wins). */
    public static Map<String, String> named(Map<String, String> facts) {
        Map<String, String> out = new LinkedHashMap<>();
        facts.forEach((k, v) -> out.putIfAbsent(rightName(k), v));
        return out;
    }

    private static String rightName(String key) {
        for (Map.Entry<String, String> m : MISNAMED.entrySet()) {
            if (key.startsWith(m.getKey())) {
                return m.getValue() + key.substring(m.getKey().length());
            }
        }
        return key;
    }
}
