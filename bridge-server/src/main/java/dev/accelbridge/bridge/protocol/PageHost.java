package dev.accelbridge.bridge.protocol;

import com.fasterxml.jackson.databind.JsonNode;
import dev.accelbridge.core.HostFacts;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.Untrusted;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The host a page ran on, read from its {@link PageProbe}: a page joined by hand as a device of its own, a Grid node with
 * the page's accelerator facts added, and the browser named from its user agent. {@link PageProbe} says what the browser
 * can run; this says where it is and which browser it is.
 */
@PublicApi
public final class PageHost {
    private PageHost() {
    }

    /**
     * The device this page runs on, from the page's own facts: what a page that joined by hand ({@code serve}) is recorded
     * as, since it ran the cases, not the bridge's host. The name says where it connected from and what it is; the
     * fingerprint hashes its facts (user agent, platform, architecture, cores, memory, WebGPU adapter, WebNN contexts), so
     * the same device and browser build is the same host run after run. {@code navigator.deviceMemory} is a rounded
     * lower bound (at most 8 GiB in Chromium) and fills {@link HostInfo#memoryBytes()} as such; what the page cannot know
     * (CPU model, physical cores) stays empty.
     *
     * @param remoteAddress where its WebSocket came from ({@code /192.168.1.20:51544})
     */
    public static HostInfo device(PageProbe p, String remoteAddress) {
        JsonNode f = p.facts();
        String platform = f.path("uaPlatform").asText("").isBlank() ? f.path("platform").asText("") : f.path("uaPlatform").asText();
        String os = (platform + " " + f.path("platformVersion").asText("")).trim();
        String arch = f.path("architecture").asText("").isBlank() ? null : f.path("architecture").asText();
        double gib = f.path("deviceMemory").asDouble(0);
        String[] browser = browserFromUserAgent(p.userAgent());
        String addr = remoteAddress == null ? "unknown" : remoteAddress.replaceFirst("^/", "").replaceFirst(":\\d+$", "");
        List<String> gpus = p.webgpu().adapterFound() ? List.of(p.webgpu().label()) : List.of();
        List<String> simd = p.wasm().simd() ? List.of("wasm-simd") : List.of();
        List<String> facts = new ArrayList<>(Arrays.asList(p.userAgent(), os, arch, Integer.toString(p.hardwareConcurrency()),
                Double.toString(gib), p.webgpu().label()));
        p.webnn().contexts().forEach(c -> facts.add(c.options() + c.ok()));
        String fingerprint = "device-" + HostInfo.fingerprintOf(facts);
        String name = "device " + addr + " (" + (platform.isBlank() ? "unknown platform" : platform) + ", " + browser[0]
                + (browser[1] == null ? "" : " " + browser[1]) + ")";
        return new HostInfo(name, fingerprint, os.isBlank() ? null : os, arch, null, 0, p.hardwareConcurrency(), simd,
                (long) (gib * (1L << 30)), gpus, null, acceleratorFacts(p));
    }

    /**
     * {@code node} (a Grid node, as the Grid describes it) with what this page found there: its WebGPU adapter as a GPU and
     * as facts (vendor, architecture, {@code isFallbackAdapter}), its WebNN contexts, its cores and memory; the fingerprint
     * also hashes the adapter and the contexts, so a node with another GPU is another host.
     */
    public static HostInfo onHost(PageProbe p, HostInfo node) {
        Map<String, String> facts = new LinkedHashMap<>(node.facts());
        facts.putAll(acceleratorFacts(p));
        List<String> fp = new ArrayList<>(Arrays.asList(node.hostname(), node.os(), node.arch(), p.webgpu().label()));
        facts.forEach((k, v) -> fp.add(k + "=" + v));
        double gib = p.facts().path("deviceMemory").asDouble(0);
        String kind = node.fingerprint() == null || node.fingerprint().indexOf('-') < 0 ? "remote"
                : node.fingerprint().substring(0, node.fingerprint().indexOf('-'));
        return new HostInfo(node.hostname(), kind + "-" + HostInfo.fingerprintOf(fp), node.os(), node.arch(), node.cpuModel(),
                node.physicalCores(), p.hardwareConcurrency(), p.wasm().simd() ? List.of("wasm-simd") : List.of(), (long) (gib * (1L << 30)),
                p.webgpu().adapterFound() ? List.of(p.webgpu().label()) : List.of(), node.javaVersion(), facts);
    }

    /** The page's WebGPU adapter and WebNN contexts as a host's facts. */
    private static Map<String, String> acceleratorFacts(PageProbe p) {
        Map<String, String> out = new LinkedHashMap<>();
        if (p.webgpu().adapterFound()) {
            out.put(HostFacts.WEBGPU_VENDOR, p.webgpu().vendor());
            out.put(HostFacts.WEBGPU_ARCHITECTURE, p.webgpu().architecture());
            out.put(HostFacts.WEBGPU_FALLBACK, String.valueOf(p.webgpu().isFallbackAdapter()));
        } else {
            out.put(HostFacts.WEBGPU_NONE, "none: " + Untrusted.bounded(p.webgpu().evidence(), 200));
        }
        p.webnn().contexts().forEach(c -> out.put(HostFacts.WEBNN_CONTEXT + (c.deviceType() == null ? "default" : c.deviceType()),
                c.ok() ? "ok" : "failed: " + Untrusted.bounded(c.error(), 200)));
        if (!p.webnn().present()) {
            out.put(HostFacts.WEBNN_NONE, "none: " + Untrusted.bounded(p.webnn().evidence(), 200));
        }
        out.put(HostFacts.SECURE_CONTEXT, String.valueOf(p.secureContext()));
        out.put(HostFacts.CROSS_ORIGIN_ISOLATED, String.valueOf(p.crossOriginIsolated()));
        return out;
    }

    private static final Pattern UA_FIREFOX = Pattern.compile("Firefox/([0-9.]+)");
    private static final Pattern UA_EDGE = Pattern.compile("Edg/([0-9.]+)");
    private static final Pattern UA_CHROME = Pattern.compile("(HeadlessChrome|Chrome|Chromium)/([0-9.]+)");
    private static final Pattern UA_SAFARI = Pattern.compile("Version/([0-9.]+).*Safari/");
    private static final Pattern UA_APPLE = Pattern.compile("Macintosh|iPhone|iPad|iPod");

    /** {name, version} read from the user agent ({@code chrome 156.0.0.0}, {@code firefox 153.0}); for pages joined by hand. */
    public static String[] browserFromUserAgent(String userAgent) {
        Matcher m = UA_FIREFOX.matcher(userAgent);
        if (m.find()) {
            return new String[] {"firefox", m.group(1)};
        }
        m = UA_EDGE.matcher(userAgent);
        if (m.find()) {
            return new String[] {"edge", m.group(1)};
        }
        m = UA_CHROME.matcher(userAgent);
        if (m.find()) {
            return new String[] {m.group(1).equals("HeadlessChrome") ? "chrome-headless" : m.group(1).toLowerCase(Locale.ROOT), m.group(2)};
        }
        m = UA_SAFARI.matcher(userAgent);
        if (m.find()) {
            // WebKitGTK says "Safari" too, with a made-up Version; only Apple's systems run Safari itself
            return UA_APPLE.matcher(userAgent).find() ? new String[] {"safari", m.group(1)} : new String[] {"webkit", null};
        }
        return new String[] {"unknown", null};
    }
}
