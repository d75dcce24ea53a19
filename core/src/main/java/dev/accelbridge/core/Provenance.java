package dev.accelbridge.core;

import java.util.List;
import java.util.Map;

/**
 * Where and with what a result was produced. Every field that does not apply is null (not a made-up value).
 *
 * @param host               host name
 * @param hostFingerprint    {@link HostInfo#fingerprint()}
 * @param os                 OS name and version
 * @param browser            browser name ({@code chromium}, {@code chromium-shell}, {@code firefox}); null for native
 * @param browserVersion     the browser build ({@code 156.0.8078.73}); null for native
 * @param driver             how the browser was driven: {@code playwright}, {@code selenium}, {@code grid},
 *                           {@code process}, {@code manual}; {@code djl} for native runs
 * @param adapter            the WebGPU adapter ("google swiftshader (software adapter)"), or the native device; null when none
 * @param softwareAdapter    true when the WebGPU adapter is a software rasterizer (SwiftShader, lavapipe); null when not WebGPU
 * @param executionProviders the execution providers the runtime reported as used/available
 * @param runtimeVersions    component → version ({@code onnxruntime}, {@code onnxruntime-web}, {@code djl}, {@code java})
 * @param threads            the intra-op threads the runtime actually used (ORT's setting natively, onnxruntime-web's
 *                           {@code env.wasm.numThreads} in the page); null when not known
 * @param verified           code fetched at run time that the case used, each verified before its use in this run:
 *                           what it is ({@code onnxruntime-web 1.22.0}, {@code chromium-shell 141.0.0}, {@code onnxruntime
 *                           1.19.0 jar}) → the hash verified ({@code sha512-…}, {@code sha256 …}); empty when it used none
 */
public record Provenance(String host, String hostFingerprint, String os, String browser, String browserVersion,
                         String driver, String adapter, Boolean softwareAdapter, List<String> executionProviders,
                         Map<String, String> runtimeVersions, Integer threads, Map<String, String> verified) {
    public Provenance {
        executionProviders = executionProviders == null ? List.of() : List.copyOf(executionProviders);
        runtimeVersions = runtimeVersions == null ? Map.of() : Map.copyOf(runtimeVersions);
        verified = verified == null ? Map.of() : Map.copyOf(verified);
    }

    /** A provenance that names no fetched code. */
    public Provenance(String host, String hostFingerprint, String os, String browser, String browserVersion, String driver,
                      String adapter, Boolean softwareAdapter, List<String> executionProviders, Map<String, String> runtimeVersions,
                      Integer threads) {
        this(host, hostFingerprint, os, browser, browserVersion, driver, adapter, softwareAdapter, executionProviders,
                runtimeVersions, threads, Map.of());
    }

    /** A provenance without host fields, as a provider reports it; the orchestrator adds the host. */
    public static Provenance of(String browser, String browserVersion, String driver, String adapter, Boolean softwareAdapter,
                                List<String> executionProviders, Map<String, String> runtimeVersions) {
        return new Provenance(null, null, null, browser, browserVersion, driver, adapter, softwareAdapter,
                executionProviders, runtimeVersions, null);
    }

    /** The same, with the host fields filled from {@code host}. */
    public Provenance withHost(HostInfo host) {
        return new Provenance(host.hostname(), host.fingerprint(), host.os(), browser, browserVersion, driver, adapter,
                softwareAdapter, executionProviders, runtimeVersions, threads, verified);
    }

    /**
     * The same, with the host fields from {@code host} unless the provider already named its own host: a browser on a
     * Grid node or a device that joined by hand ran the case there, not here.
     */
    public Provenance withDefaultHost(HostInfo host) {
        return this.hostFingerprint != null ? this : withHost(host);
    }

    /** The same, with the thread count the runtime used. */
    public Provenance withThreads(Integer n) {
        return new Provenance(host, hostFingerprint, os, browser, browserVersion, driver, adapter, softwareAdapter,
                executionProviders, runtimeVersions, n, verified);
    }

    /** The same, naming also the fetched code in {@code more} (what → hash verified in this run). */
    public Provenance withVerified(Map<String, String> more) {
        Map<String, String> all = new java.util.TreeMap<>(verified);
        all.putAll(more);
        return new Provenance(host, hostFingerprint, os, browser, browserVersion, driver, adapter, softwareAdapter,
                executionProviders, runtimeVersions, threads, all);
    }


    /** The V8 flags a Chromium build launched by Accelbridge ran with ({@code v8-flags}); null when none were recorded. */
    public String v8Flags() {
        return runtimeVersions.get("v8-flags");
    }

    /**
     * Whether V8 optimised each hot WebAssembly function at once ({@code --wasm-sync-tier-up}, the last of it and its
     * {@code --no-} form winning, as in V8): cold figures a user's browser, which optimises in the background, does not show.
     */
    public boolean syncTierUp() {
        String f = v8Flags();
        if (f == null) {
            return false;
        }
        int on = f.lastIndexOf("--wasm-sync-tier-up");
        int off = f.lastIndexOf("--no-wasm-sync-tier-up");
        return on >= 0 && on > off;
    }

    /** "chromium 156.0.8078.73", or "native". */
    public String browserLabel() {
        return browser == null ? "native" : browserVersion == null ? browser : browser + " " + browserVersion;
    }
}
