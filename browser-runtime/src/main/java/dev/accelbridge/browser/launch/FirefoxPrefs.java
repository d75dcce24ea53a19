package dev.accelbridge.browser.launch;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The Firefox preferences of every fresh profile, in one place (plain-process launch writes them to
 * {@code user.js}; a Grid launch passes them as {@code moz:firefoxOptions} prefs).
 */
final class FirefoxPrefs {
    /** Preference name to value (Boolean, Integer or String). */
    public static final Map<String, Object> PREFS = build();

    /**
     * The environment a launched Firefox gets: without {@code MOZ_REMOTE_SETTINGS_DEVTOOLS} a release build ignores
     * {@code services.settings.server} and fetched remote settings' changesets from firefox.settings.services.mozilla.com
     * at every start (measured).
     */
    public static final Map<String, String> ENV = Map.of("MOZ_REMOTE_SETTINGS_DEVTOOLS", "1");

    private FirefoxPrefs() {
    }

    private static Map<String, Object> build() {
        Map<String, Object> p = new LinkedHashMap<>();
        // WebGPU is off by default on Linux ESR, and the software (lavapipe) adapter is blocklisted.
        p.put("dom.webgpu.enabled", true);
        p.put("gfx.webgpu.ignore-blocklist", true);
        // No first-run pages, default-browser prompt, crash-restore or slow-script dialog.
        p.put("browser.shell.checkDefaultBrowser", false);
        p.put("browser.aboutwelcome.enabled", false);
        p.put("browser.startup.homepage_override.mstone", "ignore");
        p.put("startup.homepage_welcome_url", "");
        p.put("startup.homepage_welcome_url.additional", "");
        p.put("browser.startup.firstrunSkipsHomepage", true);
        p.put("browser.sessionstore.resume_from_crash", false);
        p.put("toolkit.startup.max_resumed_crashes", -1);
        p.put("browser.tabs.warnOnClose", false);
        p.put("dom.max_script_run_time", 0);
        // No telemetry, studies or data reporting.
        p.put("datareporting.policy.dataSubmissionEnabled", false);
        p.put("datareporting.healthreport.uploadEnabled", false);
        p.put("toolkit.telemetry.enabled", false);
        p.put("toolkit.telemetry.unified", false);
        p.put("toolkit.telemetry.reportingpolicy.firstRun", false);
        p.put("app.normandy.enabled", false);
        p.put("app.shield.optoutstudies.enabled", false);
        p.put("browser.discovery.enabled", false);
        // No updates of the browser, add-ons, plugins, search engines or remote settings.
        p.put("app.update.enabled", false);
        p.put("app.update.auto", false);
        p.put("extensions.update.enabled", false);
        p.put("extensions.getAddons.cache.enabled", false);
        p.put("media.gmp-manager.updateEnabled", false);
        p.put("browser.search.update", false);
        // remote settings' server, pointed at loopback port 9 (refused); Firefox honours it only with REMOTE_SETTINGS_ENV
        p.put("services.settings.server", "http://127.0.0.1:9/v1");
        p.put("browser.region.update.enabled", false);
        p.put("browser.region.network.url", "");
        // No other network traffic than the bridge page: captive portal, connectivity, safe browsing, prefetch.
        p.put("network.captive-portal-service.enabled", false);
        p.put("network.connectivity-service.enabled", false);
        p.put("browser.safebrowsing.malware.enabled", false);
        p.put("browser.safebrowsing.phishing.enabled", false);
        p.put("browser.safebrowsing.downloads.enabled", false);
        p.put("browser.safebrowsing.downloads.remote.enabled", false);
        p.put("network.dns.disablePrefetch", true);
        p.put("network.prefetch-next", false);
        p.put("network.http.speculative-parallel-limit", 0);
        p.put("browser.newtabpage.enabled", false);
        p.put("extensions.pocket.enabled", false);
        p.put("identity.fxaccounts.enabled", false);
        p.put("geo.provider.network.url", "");
        // Measured with MOZ_LOG=nsHttp during a run, with the prefs above alone: Firefox 140 still asked
        // push.services.mozilla.com, incoming.telemetry.mozilla.org (usage reporting), ads.mozilla.org and
        // firefox.settings.services.mozilla.com (remote settings' changesets) within seconds of starting.
        p.put("dom.push.enabled", false);
        p.put("dom.push.connection.enabled", false);
        p.put("dom.push.serverURL", "");
        p.put("datareporting.usage.uploadEnabled", false);
        p.put("toolkit.telemetry.server", "data:,");
        p.put("toolkit.telemetry.archive.enabled", false);
        p.put("browser.ping-centre.telemetry", false);
        p.put("browser.newtabpage.activity-stream.feeds.telemetry", false);
        p.put("browser.newtabpage.activity-stream.telemetry", false);
        p.put("browser.newtabpage.activity-stream.feeds.topsites", false);
        p.put("browser.newtabpage.activity-stream.feeds.section.topstories", false);
        p.put("browser.newtabpage.activity-stream.showSponsored", false);
        p.put("browser.newtabpage.activity-stream.showSponsoredTopSites", false);
        p.put("browser.newtabpage.activity-stream.unifiedAds.tiles.enabled", false);
        p.put("browser.newtabpage.activity-stream.unifiedAds.spocs.enabled", false);
        p.put("browser.topsites.contile.enabled", false);
        p.put("browser.urlbar.quicksuggest.enabled", false);
        p.put("messaging-system.rsexperimentloader.enabled", false);
        p.put("nimbus.enabled", false);
        p.put("services.settings.poll_interval", 2147483647);
        p.put("browser.safebrowsing.provider.mozilla.updateURL", "");
        p.put("browser.safebrowsing.provider.google4.updateURL", "");
        p.put("browser.safebrowsing.provider.google.updateURL", "");
        p.put("network.trr.mode", 5);
        p.put("browser.places.speculativeConnect.enabled", false);
        p.put("browser.urlbar.speculativeConnect.enabled", false);
        return java.util.Collections.unmodifiableMap(p);
    }

    /** Writes {@code prefs} ({@link LaunchOptions#allFirefoxPrefs}) as {@code user.js} into a profile folder. */
    /** A profile for {@code options}: its preferences ({@code user.js}) and the overrides of the certificate it trusts. */
    static void writeProfile(Path profile, LaunchOptions options) {
        writeUserJs(profile, options.allFirefoxPrefs());
        options.trust().ifPresent(t -> {
            try {
                t.writeFirefoxOverrides(profile);
            } catch (IOException e) {
                throw new BrowserLaunchException("Cannot write the Firefox profile's cert_override.txt in " + profile + ": "
                        + e.getMessage(), "check free space and permissions of the temp folder", e);
            }
        });
    }

    static void writeUserJs(Path profile, Map<String, Object> prefs) {
        StringBuilder sb = new StringBuilder("// Written by Accelbridge for a throw-away profile.\n");
        prefs.forEach((k, v) -> sb.append("user_pref(\"").append(k).append("\", ").append(js(v)).append(");\n"));
        try {
            Files.writeString(profile.resolve("user.js"), sb.toString(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new BrowserLaunchException("Cannot write the Firefox profile's user.js in " + profile + ": " + e.getMessage(),
                    "check free space and permissions of the temp folder", e);
        }
    }

    static String js(Object v) {
        if (v instanceof String s) {
            return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
        }
        return String.valueOf(v);
    }
}
