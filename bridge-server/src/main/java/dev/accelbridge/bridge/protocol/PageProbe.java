package dev.accelbridge.bridge.protocol;

import dev.accelbridge.core.Diagnostic;
import dev.accelbridge.core.PublicApi;
import com.fasterxml.jackson.databind.JsonNode;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * What a page found when it probed its browser ({@code probe.mjs}): the values come from the browser itself.
 * {@link #availability} turns it into core {@link Availability} answers with that evidence.
 *
 * @param userAgent           {@code navigator.userAgent}
 * @param hardwareConcurrency {@code navigator.hardwareConcurrency}
 * @param crossOriginIsolated whether the page is cross-origin isolated (needed for threaded WASM)
 * @param wasm                WebAssembly support
 * @param webgpu              WebGPU adapter
 * @param webnn               WebNN contexts
 * @param json                the probe as the page sent it (kept verbatim for reports)
 */
@PublicApi
public record PageProbe(String userAgent, int hardwareConcurrency, boolean crossOriginIsolated, Wasm wasm, WebGpu webgpu,
                        WebNn webnn, String json) {

    /** WebAssembly support. */
    public record Wasm(boolean present, boolean simd, boolean threads, boolean sharedArrayBuffer, boolean jspi) {
    }

    /**
     * The WebGPU adapter {@code requestAdapter()} returned, or why there is none.
     *
     * @param evidence e.g. {@code navigator.gpu present, requestAdapter() returned null}
     */
    public record WebGpu(boolean present, boolean adapterFound, String vendor, String architecture, String device,
                         String description, Boolean isFallbackAdapter, List<String> features, Map<String, Long> limits,
                         String evidence) {
        public WebGpu {
            features = List.copyOf(features);
            limits = Map.copyOf(limits);
        }

        /** True for a software rasterizer (SwiftShader, lavapipe/llvmpipe, WARP) or an adapter flagged as fallback. */
        public boolean software() {
            if (!adapterFound) {
                return false;
            }
            if (Boolean.TRUE.equals(isFallbackAdapter)) {
                return true;
            }
            String all = (vendor + " " + architecture + " " + device + " " + description).toLowerCase(Locale.ROOT);
            return all.contains("swiftshader") || all.contains("llvmpipe") || all.contains("lavapipe")
                    || all.contains("warp") || all.contains("software");
        }

        /** The adapter as provenance names it, e.g. {@code google swiftshader (software adapter)}; null without one. */
        public String label() {
            if (!adapterFound) {
                return null;
            }
            StringBuilder s = new StringBuilder();
            for (String p : new String[] {vendor, architecture, description.isBlank() ? device : description}) {
                if (p != null && !p.isBlank() && s.indexOf(p) < 0) {
                    s.append(s.length() == 0 ? "" : " ").append(p);
                }
            }
            if (s.length() == 0) {
                s.append(dev.accelbridge.core.Acceleration.UNNAMED);
            }
            return s + (software() ? " (software adapter)" : "");
        }

        /** True when the adapter offers {@code feature} (e.g. {@code shader-f16}). */
        public boolean hasFeature(String feature) {
            return features.contains(feature);
        }
    }

    /**
     * One {@code navigator.ml.createContext(options)} attempt.
     *
     * @param options         the options as JSON ({@code {"deviceType":"gpu"}})
     * @param deviceType      the deviceType tried, or null
     * @param powerPreference the powerPreference tried, or null
     * @param ok              the context was created
     * @param error           the exact error text, e.g. {@code NotSupportedError: WebNN is not supported on this platform.}
     * @param opSupportLimits a summary of {@code opSupportLimits()}, or null
     */
    public record WebNnContext(String options, String deviceType, String powerPreference, boolean ok, String error,
                               String opSupportLimits) {
    }

    /** WebNN: whether {@code navigator.ml} exists, and each context attempt. */
    public record WebNn(boolean present, List<WebNnContext> contexts, String evidence) {
        public WebNn {
            contexts = List.copyOf(contexts);
        }

        /** The attempt with {@code deviceType}. */
        public Optional<WebNnContext> forDevice(String deviceType) {
            return contexts.stream().filter(c -> deviceType.equals(c.deviceType())).findFirst();
        }
    }

    /** Parses the probe object a page sends in its {@code hello}. */
    public static PageProbe parse(JsonNode p) {
        return parsed(p);
    }

    /**
     * This probe with WebGPU refused: the adapter the page found is not one the lane may use (a software adapter where
     * the GPU's was asked for), so WebGPU is unavailable with {@code evidence}; everything else as the page said.
     */
    public PageProbe withoutWebGpu(String evidence) {
        WebGpu g = new WebGpu(webgpu.present(), false, "", "", "", "", null, List.of(), Map.of(), evidence);
        return new PageProbe(userAgent, hardwareConcurrency, crossOriginIsolated, wasm, g, webnn, json);
    }

    private static PageProbe parsed(JsonNode p) {
        JsonNode w = p.path("wasm");
        Wasm wasm = new Wasm(w.path("present").asBoolean(false), w.path("simd").asBoolean(false),
                w.path("threads").asBoolean(false), w.path("sharedArrayBuffer").asBoolean(false), w.path("jspi").asBoolean(false));
        JsonNode g = p.path("webgpu");
        List<String> features = new ArrayList<>();
        g.path("features").forEach(f -> features.add(f.asText()));
        Map<String, Long> limits = new LinkedHashMap<>();
        g.path("limits").fields().forEachRemaining(e -> limits.put(e.getKey(), e.getValue().asLong()));
        JsonNode fb = g.path("isFallbackAdapter");
        WebGpu webgpu = new WebGpu(g.path("present").asBoolean(false), g.path("adapterFound").asBoolean(false),
                g.path("vendor").asText(""), g.path("architecture").asText(""), g.path("device").asText(""),
                g.path("description").asText(""), fb.isBoolean() ? fb.asBoolean() : null, features, limits,
                g.path("evidence").asText("no WebGPU probe result"));
        JsonNode n = p.path("webnn");
        List<WebNnContext> ctxs = new ArrayList<>();
        for (JsonNode c : n.path("contexts")) {
            JsonNode o = c.path("options");
            ctxs.add(new WebNnContext(o.toString(), o.hasNonNull("deviceType") ? o.get("deviceType").asText() : null,
                    o.hasNonNull("powerPreference") ? o.get("powerPreference").asText() : null, c.path("ok").asBoolean(false),
                    c.hasNonNull("error") ? c.get("error").asText() : null,
                    c.hasNonNull("opSupportLimits") ? c.get("opSupportLimits").toString() : null));
        }
        WebNn webnn = new WebNn(n.path("present").asBoolean(false), ctxs, n.path("evidence").asText("no WebNN probe result"));
        return new PageProbe(p.path("userAgent").asText(""), p.path("hardwareConcurrency").asInt(0),
                p.path("crossOriginIsolated").asBoolean(false), wasm, webgpu, webnn, p.toString());
    }

    /** True when the page ran in a secure context (HTTPS or loopback): without one, WebGPU and WebNN do not exist. */
    public boolean secureContext() {
        return facts().path("secureContext").asBoolean(false);
    }

    /** The probe as the page sent it, read again for the facts this record does not keep as fields. */
    JsonNode facts() {
        try {
            return new com.fasterxml.jackson.databind.ObjectMapper().readTree(json == null ? "{}" : json);
        } catch (java.io.IOException e) {
            return com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        }
    }

    /**
     * Whether {@code backend} can run in this browser, with the browser's own evidence.
     *
     * @param where the browser label ({@code chromium 156.0.8078.73})
     */
    public Availability availability(BackendId backend, String where) {
        if (!backend.isBrowser()) {
            return Availability.unavailable(backend, backend.id() + " is a native backend, not one a browser page offers", where);
        }
        if (backend == BackendId.WASM) {
            if (!wasm.present()) {
                return Availability.unavailable(backend, "WebAssembly undefined in this browser", where);
            }
            String ev = "WebAssembly present; SIMD " + yes(wasm.simd()) + "; threads " + yes(wasm.threads())
                    + " (crossOriginIsolated " + crossOriginIsolated + ", SharedArrayBuffer " + yes(wasm.sharedArrayBuffer())
                    + "); JSPI " + yes(wasm.jspi()) + "; hardwareConcurrency " + hardwareConcurrency;
            return wasm.simd() ? Availability.available(backend, ev, where)
                    : Availability.unavailable(backend, ev + "; onnxruntime-web's wasm builds need SIMD", where);
        }
        if (backend == BackendId.WEBGPU) {
            if (!webgpu.adapterFound()) {
                return Availability.unavailable(backend, webgpu.evidence() + insecure(), where);
            }
            String ev = "adapter " + webgpu.label() + "; vendor '" + webgpu.vendor() + "', architecture '"
                    + webgpu.architecture() + "', isFallbackAdapter " + webgpu.isFallbackAdapter() + "; shader-f16 "
                    + yes(webgpu.hasFeature("shader-f16")) + "; " + webgpu.features().size() + " features";
            return webgpu.software() ? Availability.availableInSoftware(backend, ev, where) : Availability.available(backend, ev, where);
        }
        if (!webnn.present()) {
            return Availability.unavailable(backend, webnn.evidence() + insecure(), where);
        }
        Optional<WebNnContext> c = webnn.forDevice(backend.webnnDeviceType());
        if (c.isEmpty()) {
            return Availability.unavailable(backend, webnn.evidence() + "; no createContext attempt for deviceType '"
                    + backend.webnnDeviceType() + "'", where);
        }
        WebNnContext ctx = c.get();
        if (ctx.ok()) {
            return Availability.available(backend, "navigator.ml.createContext(" + ctx.options() + ") succeeded"
                    + (ctx.opSupportLimits() == null ? "" : "; opSupportLimits " + ctx.opSupportLimits()), where);
        }
        return Availability.unavailable(backend, "navigator.ml.createContext(" + ctx.options() + ") failed: " + ctx.error(), where);
    }

    /**
     * What a page that is not a secure context loses, said where it matters (found when tried: a Grid node's page served
     * over plain HTTP from another host had no {@code navigator.gpu}, and nothing in the run said why); "" in a secure one.
     */
    private String insecure() {
        return !facts().path("secureContext").isBoolean() || secureContext() ? "" : "; the page is not a secure context (plain HTTP off loopback), where browsers hide "
                + "navigator.gpu and navigator.ml — " + SERVE_OVER_HTTPS;
    }

    /** The fix for a page that is not a secure context. */
    public static final String SERVE_OVER_HTTPS = "serve the bridge over HTTPS (run does off loopback unless --no-tls; serve --tls) "
            + "and let the browser trust its certificate";

    /**
     * A warning for a wasm case in a page that is not cross-origin isolated: onnxruntime-web then runs one thread, so its
     * figures do not compare with a lane that has threads (found when tried: a Grid node's wasm ran with 1 thread where the
     * same browser here had 2). Empty for other backends and isolated pages.
     */
    public Optional<String> isolationWarning(BackendId backend) {
        if (backend != BackendId.WASM || crossOriginIsolated || !wasm.present()) {
            return Optional.empty();
        }
        return Optional.of(Diagnostic.NOT_ISOLATED + ": wasm ran on one thread where this browser has " + hardwareConcurrency + " cores"
                + (!facts().path("secureContext").isBoolean() || secureContext() ? " (the page's headers did not make it "
                + "cross-origin isolated)" : " (the page is not a secure context: plain HTTP off loopback)") + ", so its figures do not compare with a lane that has threads — "
                + SERVE_OVER_HTTPS);
    }

    private static String yes(boolean b) {
        return b ? "yes" : "no";
    }
}
