package dev.accelbridge.core.fetch;

import dev.accelbridge.core.testing.RequiresRoot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** Cache entries on a real file system: fetched once, verified at every use, repaired when damaged, shared between processes. */
class CacheEntryTest {
    @TempDir
    Path root;

    private final AtomicInteger fills = new AtomicInteger();

    private Map<String, String> fill(Path into) throws IOException {
        fills.incrementAndGet();
        Files.createDirectories(into.resolve("lib"));
        Files.writeString(into.resolve("lib/code.js"), "export const answer = 42;\n");
        Files.writeString(into.resolve("run.sh"), "#!/bin/sh\necho hi\n");
        into.resolve("run.sh").toFile().setExecutable(true);
        return Map.of("source", "test", "integrity", "sha512-abc");
    }

    private CacheEntry entry() {
        return new CacheEntry(root, "pkg", "demo@1.0.0");
    }

    @Test
    void anEntryIsFetchedOnceThenVerifiedFromTheCache() {
        CacheEntry.Verified first = entry().obtain("demo 1.0.0", this::fill, CacheEntry.Check.NONE);
        CacheEntry.Verified again = entry().obtain("demo 1.0.0", this::fill, CacheEntry.Check.NONE);
        assertThat(fills).hasValue(1);
        assertThat(first.fetched()).isTrue();
        assertThat(again.fetched()).isFalse();
        assertThat(again.manifest()).isEqualTo(first.manifest()).hasSize(64);
        assertThat(again.fact("integrity")).isEqualTo("sha512-abc");
        assertThat(again.dir().resolve(CacheEntry.RECORD)).exists();
        assertThat(entry().existing(CacheEntry.Check.NONE)).isPresent();
    }

    @Test
    void anEditedFileIsFoundAtTheNextUseAndTheEntryFetchedAgain() throws IOException {
        CacheEntry.Verified first = entry().obtain("demo 1.0.0", this::fill, CacheEntry.Check.NONE);
        // found when tried: a silent append to a cached onnxruntime-web was served and run
        Files.writeString(first.dir().resolve("lib/code.js"), "fetch('//evil');\n", StandardOpenOption.APPEND);
        assertThat(entry().existing(CacheEntry.Check.NONE)).isEmpty();
        CacheEntry.Verified again = entry().obtain("demo 1.0.0", this::fill, CacheEntry.Check.NONE);
        assertThat(fills).hasValue(2);
        assertThat(again.repaired()).contains("lib/code.js").contains("recorded at unpacking");
        assertThat(again.manifest()).isEqualTo(first.manifest());
        assertThat(Files.readString(again.dir().resolve("lib/code.js"))).doesNotContain("evil");
    }

    @Test
    void anEditThatKeepsSizeAndTimesIsFoundToo() throws IOException {
        CacheEntry.Verified first = entry().obtain("demo 1.0.0", this::fill, CacheEntry.Check.NONE);
        Path f = first.dir().resolve("lib/code.js");
        var mtime = Files.getLastModifiedTime(f);
        Files.writeString(f, "export const answer = 43;\n");
        Files.setLastModifiedTime(f, mtime);
        CacheEntry.Verified again = entry().obtain("demo 1.0.0", this::fill, CacheEntry.Check.NONE);
        assertThat(again.repaired()).contains("lib/code.js has sha256");
    }

    @Test
    void extraMissingAndNewlyExecutableFilesAreEachFound() throws IOException {
        Path dir = entry().obtain("demo 1.0.0", this::fill, CacheEntry.Check.NONE).dir();
        Files.writeString(dir.resolve("lib/extra.js"), "x");
        assertThat(entry().obtain("demo 1.0.0", this::fill, CacheEntry.Check.NONE).repaired()).contains("lib/extra.js was not there");
        Files.delete(dir.resolve("run.sh"));
        assertThat(entry().obtain("demo 1.0.0", this::fill, CacheEntry.Check.NONE).repaired()).contains("run.sh is missing");
        dir.resolve("lib/code.js").toFile().setExecutable(true);
        assertThat(entry().obtain("demo 1.0.0", this::fill, CacheEntry.Check.NONE).repaired()).contains("was made executable");
        assertThat(fills).hasValue(4);
    }

    @Test
    void aHardLinkPlantedInTheEntryIsRefused() throws IOException {
        Path dir = entry().obtain("demo 1.0.0", this::fill, CacheEntry.Check.NONE).dir();
        Path outside = Files.writeString(root.resolve("secret.txt"), "not for serving");
        Files.delete(dir.resolve("lib/code.js"));
        Files.createLink(dir.resolve("lib/code.js"), outside);
        CacheEntry.Verified again = entry().obtain("demo 1.0.0", this::fill, CacheEntry.Check.NONE);
        assertThat(again.repaired()).contains("lib/code.js");
        assertThat(Files.readString(again.dir().resolve("lib/code.js"))).startsWith("export");
        assertThat(Files.readString(outside)).isEqualTo("not for serving");
    }

    @Test
    void aFolderWithoutARecordIsReplacedNotAnError() throws IOException {
        // found when tried: a move onto a non-empty folder is a plain FileSystemException in Java, so a damaged or
        // concurrent entry became UNAVAILABLE "Directory not empty" although the version was on disk
        Path dir = entry().dir();
        Files.createDirectories(dir.resolve("node_modules"));
        Files.writeString(dir.resolve("node_modules/left-over.js"), "half an install");
        CacheEntry.Verified v = entry().obtain("demo 1.0.0", this::fill, CacheEntry.Check.NONE);
        assertThat(v.fetched()).isTrue();
        assertThat(v.repaired()).contains("no record");
        assertThat(dir.resolve("node_modules")).doesNotExist();
        try (var s = Files.list(dir.getParent())) {
            assertThat(s.map(p -> p.getFileName().toString()).filter(n -> n.contains("partial") || n.contains("damaged")).toList()).isEmpty();
        }
    }

    @Test
    void aCopyThatFailsItsCheckTwiceCannotBeHadAndTheErrorNamesBothHashes() {
        CacheEntry.Check integrity = (dir, facts) -> Optional.of("the tarball's sha512 is sha512-BBB; the registry publishes "
                + facts.get("integrity"));
        assertThatThrownBy(() -> entry().obtain("demo 1.0.0", this::fill, integrity))
                .isInstanceOf(CacheEntryException.class)
                .hasMessageContaining("demo 1.0.0 could not be had intact")
                .hasMessageContaining("sha512-BBB").hasMessageContaining("sha512-abc");
        assertThat(fills).hasValue(2);
        assertThat(entry().dir()).doesNotExist();
    }

    @Test
    void whatAnUnpackerLeftWritableByOthersIsTakenOverAndAnEntryMadeSoLaterIsRefused() throws IOException {
        CacheEntry.Verified v = entry().obtain("demo 1.0.0", into -> {
            Map<String, String> facts = fill(into);
            Files.setAttribute(into.resolve("lib/code.js"), "unix:mode", 0666); // as an archive's mode bits might say
            return facts;
        }, CacheEntry.Check.NONE);
        assertThat(Ownership.modeOf(v.dir().resolve("lib/code.js")) & 0022).isZero();
        Files.setAttribute(v.dir().resolve("run.sh"), "unix:mode", 0777);
        CacheEntry.Verified again = entry().obtain("demo 1.0.0", this::fill, CacheEntry.Check.NONE);
        assertThat(again.repaired()).contains("run.sh is writable by every user");
        assertThat(Ownership.modeOf(again.dir().resolve("run.sh")) & 0022).isZero();
    }

    @Test
    @RequiresRoot
    void aFileOfAnotherUserIsTakenOverWhenUnpackedAndRefusedWhenFoundLater() throws IOException {
        // found when tried: unpacked as root, the headless shell's libraries kept the archive's owner (uid 1000), who
        // replaced libvulkan.so.1 and had root's next run load it
        CacheEntry.Verified v = entry().obtain("demo 1.0.0", into -> {
            Map<String, String> facts = fill(into);
            Files.setAttribute(into.resolve("lib/code.js"), "unix:uid", 1000, LinkOption.NOFOLLOW_LINKS);
            Files.setAttribute(into.resolve("lib"), "unix:uid", 1000, LinkOption.NOFOLLOW_LINKS);
            return facts;
        }, CacheEntry.Check.NONE);
        assertThat(Ownership.uidOf(v.dir().resolve("lib/code.js"))).isZero();
        assertThat(Ownership.uidOf(v.dir().resolve("lib"))).isZero();
        Files.setAttribute(v.dir().resolve("run.sh"), "unix:uid", 1000, LinkOption.NOFOLLOW_LINKS);
        CacheEntry.Verified again = entry().obtain("demo 1.0.0", this::fill, CacheEntry.Check.NONE);
        assertThat(again.repaired()).contains("run.sh belongs to uid 1000");
        assertThat(Ownership.uidOf(again.dir().resolve("run.sh"))).isZero();
    }

    @Test
    void aCacheFolderEveryUserCanWriteInIsNotUsed() throws IOException {
        Path shared = Files.createDirectories(root.resolve("shared"));
        Files.setAttribute(shared, "unix:mode", 0777); // no sticky bit: anyone could swap an entry after it was verified
        CacheEntry.Verified v = new CacheEntry(shared, "pkg", "demo@1.0.0").obtain("demo 1.0.0", this::fill, CacheEntry.Check.NONE);
        assertThat(v.dir().startsWith(shared)).isFalse();
        assertThat(v.repaired()).contains("writable by every user");
        assertThat(Ownership.modeOf(v.dir().getParent().getParent()) & 0077).isZero();
    }

    @Test
    void twoProcessesSharingTheCacheFetchOnceAndBothUseTheEntry() throws Exception {
        Path fillsLog = root.resolve("fills.log");
        Path ready = root.resolve("child-ready");
        Process child = new ProcessBuilder(javaCommand(Contender.class, root.toString(), fillsLog.toString(), ready.toString()))
                .redirectErrorStream(true).start();
        for (int i = 0; i < 600 && !Files.exists(ready) && child.isAlive(); i++) {
            Thread.sleep(50);
        }
        CacheEntry.Verified mine = new CacheEntry(root, "pkg", "shared@1.0.0").obtain("shared 1.0.0",
                into -> slowFill(into, fillsLog, "parent"), CacheEntry.Check.NONE);
        assertThat(child.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = new String(child.getInputStream().readAllBytes(), StandardCharsets.UTF_8).strip();
        assertThat(child.exitValue()).as(out).isZero();
        assertThat(out).endsWith(mine.manifest());
        assertThat(Files.readAllLines(fillsLog)).hasSize(1);
    }

    /** A fill that takes a while, so two processes overlap, and says who filled. */
    static Map<String, String> slowFill(Path into, Path fillsLog, String who) throws IOException {
        Contender.log(fillsLog, who);
        try {
            Thread.sleep(700);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        Files.writeString(into.resolve("payload.bin"), "filled by one process");
        return Map.of("who", who);
    }

    private static List<String> javaCommand(Class<?> main, String... args) {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                String.join(File.pathSeparator, System.getProperty("java.class.path")), main.getName()));
        cmd.addAll(List.of(args));
        return cmd;
    }
}
