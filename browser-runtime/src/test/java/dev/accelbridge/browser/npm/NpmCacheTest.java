package dev.accelbridge.browser.npm;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/** What the npm cache refuses before any of its code runs, and the one configuration every npm command reads. */
class NpmCacheTest {
    @TempDir
    Path cache;

    @Test
    void aPlantedPackageWithAForgedStampIsNeverTakenSoItsCodeNeverRuns() throws IOException {
        // found when tried: a planted shell package whose stamp said "sha512-forged" was accepted and its code run by the
        // unpack script. Planted here in both the old stamp's form and the record's (a manifest that matches its files).
        Path planted = Files.createDirectories(cache.resolve("npm/@sparticuz+chromium@147.0.0/node_modules/@sparticuz/chromium"));
        Path marker = cache.resolve("ran");
        Files.writeString(planted.resolve("package.json"), "{\"name\":\"@sparticuz/chromium\",\"version\":\"147.0.0\",\"main\":\"index.js\"}");
        Files.writeString(planted.resolve("index.js"), "require('fs').writeFileSync('" + marker + "', 'x')");
        Path entry = cache.resolve("npm/@sparticuz+chromium@147.0.0");
        Files.writeString(entry.resolve(".accelbridge-installed.json"), "{\"integrity\":\"sha512-forged\"}");
        assertThat(NpmRegistry.inCache(cache, "@sparticuz/chromium", "147.0.0")).as("no record of an unpacking").isEmpty();

        var manifest = dev.accelbridge.core.fetch.TreeManifest.of(entry, java.util.Set.of(".accelbridge-entry"));
        Files.writeString(entry.resolve(".accelbridge-entry"), "accelbridge-entry 1\n@name @sparticuz/chromium\n@version 147.0.0\n"
                + "@integrity sha512-forged\n" + manifest.text());
        assertThat(NpmRegistry.inCache(cache, "@sparticuz/chromium", "147.0.0")).as("a forged integrity").isEmpty();

        String real = "sha512-" + "A".repeat(86) + "==";
        Files.writeString(entry.resolve(".accelbridge-entry"), "accelbridge-entry 1\n@name @sparticuz/chromium\n@version 147.0.0\n"
                + "@integrity " + real + "\n" + manifest.text());
        assertThat(NpmRegistry.inCache(cache, "@sparticuz/chromium", "147.0.0")).as("no tarball with that integrity").isEmpty();
        assertThat(marker).doesNotExist();
    }

    @Test
    void everyNpmCommandReadsTheSameConfigurationWhereverAccelbridgeStarted() throws IOException {
        // found when tried: 'npm view' read the .npmrc of the caller's folder while 'npm install' (in a folder of its own) did not
        Path caller = Files.createDirectories(cache.resolve("caller"));
        Files.writeString(caller.resolve(".npmrc"), "registry=http://127.0.0.1:9/\n");
        assertThat(Npm.run(List.of("config", "get", "registry"), caller, "read the registry").strip()).isEqualTo("http://127.0.0.1:9/");
        String neutral = Npm.run(List.of("config", "get", "registry"), null, "read the registry").strip();
        assertThat(neutral).isNotEqualTo("http://127.0.0.1:9/");
        assertThat(Npm.neutralDir()).isNotEqualTo(Path.of("").toAbsolutePath());
        try (var s = Files.list(Npm.neutralDir())) {
            assertThat(s.toList()).as("nothing that could configure npm").isEmpty();
        }
    }
}
