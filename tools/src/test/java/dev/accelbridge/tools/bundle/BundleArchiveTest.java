package dev.accelbridge.tools.bundle;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A bundle's archive, packed here and unpacked by its own {@code install.sh} (the real script, with the system's sh,
 * sha256sum and tar): the files come back as they were, in parts no larger than asked; a part whose bytes were changed,
 * a part missing or added, a manifest that is not the bundle's, and a file changed inside the archive are each refused
 * (exit 3, one line naming it) and nothing is put in place.
 */
class BundleArchiveTest {
    @TempDir
    Path tmp;
    Path staged;
    byte[] payload;

    @BeforeEach
    void stage() throws IOException {
        staged = Files.createDirectories(tmp.resolve("staged"));
        payload = new byte[20_000];
        new Random(7).nextBytes(payload); // incompressible: several parts of 4 KiB
        Files.createDirectories(staged.resolve("lib/nested"));
        Files.write(staged.resolve("lib/nested/data.bin"), payload);
        Files.writeString(staged.resolve("lib/readme.txt"), "hello\n");
        Path tool = staged.resolve("bin/tool");
        Files.createDirectories(tool.getParent());
        Files.writeString(tool, "#!/bin/sh\necho tool\n");
        Files.setPosixFilePermissions(tool, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    @Test
    void theInstallerPutsBackEveryFileFromPartsNoLargerThanAsked() throws Exception {
        BundleArchive.Written w = BundleArchive.pack(staged, tmp.resolve("bundle"), 4096);
        assertThat(w.parts()).hasSizeGreaterThan(2).allSatisfy(p -> assertThat(p.bytes()).isBetween(1L, 4096L));
        assertThat(Files.readString(tmp.resolve("bundle/MANIFEST.sha256")).lines()).hasSize(w.parts().size())
                .allMatch(l -> l.matches("[0-9a-f]{64}  parts/accelbridge\\.tar\\.gz\\.\\d{3}"));

        Installed r = install(tmp.resolve("bundle"), w.manifestSha256(), tmp.resolve("app"));
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(Files.readAllBytes(tmp.resolve("app/lib/nested/data.bin"))).isEqualTo(payload);
        assertThat(tmp.resolve("app/lib/readme.txt")).hasContent("hello");
        assertThat(Files.isExecutable(tmp.resolve("app/bin/tool"))).isTrue();
        assertThat(tmp.resolve("app/FILES.sha256")).exists();
        assertThat(r.out()).contains("installed in " + tmp.resolve("app"));
    }

    @Test
    void aPartWithOneChangedByteIsRefusedAndNothingIsInstalled() throws Exception {
        BundleArchive.Written w = BundleArchive.pack(staged, tmp.resolve("bundle"), 4096);
        Path second = tmp.resolve("bundle").resolve(w.parts().get(1).path());
        byte[] b = Files.readAllBytes(second);
        b[100] ^= 0x01;
        Files.write(second, b);
        Installed r = install(tmp.resolve("bundle"), w.manifestSha256(), tmp.resolve("app"));
        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.err().strip()).startsWith("accelbridge-bundle: " + w.parts().get(1).path() + " does not match MANIFEST.sha256")
                .doesNotContain("\n");
        assertThat(tmp.resolve("app")).doesNotExist();
        assertThat(leftovers()).isEmpty();
    }

    @Test
    void aMissingPartAnAddedPartAndAManifestNotTheBundlesAreRefused() throws Exception {
        BundleArchive.Written w = BundleArchive.pack(staged, tmp.resolve("bundle"), 4096);
        Path bundle = tmp.resolve("bundle");

        Installed wrong = install(bundle, "0".repeat(64), tmp.resolve("app"));
        assertThat(wrong.exit()).isEqualTo(3);
        assertThat(wrong.err()).contains("MANIFEST.sha256 is not the bundle's");

        Path extra = bundle.resolve("parts/accelbridge.tar.gz.999");
        Files.write(extra, new byte[] {1});
        Installed added = install(bundle, w.manifestSha256(), tmp.resolve("app"));
        assertThat(added.exit()).isEqualTo(3);
        assertThat(added.err()).contains("parts/accelbridge.tar.gz.999 is not in MANIFEST.sha256");
        Files.delete(extra);

        Path last = bundle.resolve(w.parts().get(w.parts().size() - 1).path());
        Files.move(last, tmp.resolve("moved"));
        Installed missing = install(bundle, w.manifestSha256(), tmp.resolve("app"));
        assertThat(missing.exit()).isEqualTo(3);
        assertThat(missing.err()).contains(w.parts().get(w.parts().size() - 1).path() + " is missing");
        assertThat(tmp.resolve("app")).doesNotExist();
    }

    /**
     * Found when tried: the offline bench's bare PATH lacked {@code basename}, then {@code sort}, and install.sh failed
     * midway ("basename: not found"). It now checks every tool it calls first: a host without one hears which, and
     * nothing is unpacked.
     */
    @Test
    void aHostWithoutAToolItCallsHearsWhichBeforeAnythingIsUnpacked() throws Exception {
        BundleArchive.Written w = BundleArchive.pack(staged, tmp.resolve("bundle"), 4096);
        Path bin = Files.createDirectories(tmp.resolve("bare-bin"));
        for (String t : List.of("basename", "cat", "cut", "dirname", "find", "gzip", "head", "ls", "mkdir", "mv", "rm", "sed",
                "sha256sum", "sort", "tar")) { // every tool it calls but comm
            Path real = java.util.stream.Stream.of("/usr/bin", "/bin").map(d -> Path.of(d, t)).filter(Files::isExecutable).findFirst()
                    .orElseThrow();
            Files.createSymbolicLink(bin.resolve(t), real);
        }
        Installed r = installWith(java.util.Map.of("PATH", bin.toString()), tmp.resolve("bundle"), tmp.resolve("bundle"),
                "--expect", w.manifestSha256(), tmp.resolve("app").toString());
        assertThat(r.exit()).isEqualTo(2);
        assertThat(r.err().strip()).isEqualTo("accelbridge-bundle: this host has no 'comm' on PATH; install it (coreutils, findutils,"
                + " sed, tar, gzip)");
        assertThat(tmp.resolve("app")).doesNotExist();
        assertThat(leftovers()).isEmpty();
    }

    /** Parts and manifest made again around a changed file (all consistent) still meet the files' own list. */
    @Test
    void aFileChangedInsideTheArchiveIsRefusedByTheFilesList() throws Exception {
        BundleArchive.writeFileList(staged);
        Files.writeString(staged.resolve("lib/readme.txt"), "changed\n"); // after its hash was taken
        Path out = tmp.resolve("bundle");
        BundleArchive.Written w = BundleArchive.packListed(staged, out, 4096);
        Installed r = install(out, w.manifestSha256(), tmp.resolve("app"));
        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.err()).contains("an unpacked file does not match FILES.sha256");
        assertThat(tmp.resolve("app")).doesNotExist();
    }

    @Test
    void aLinkOrAnOddNameIsNotStaged() throws Exception {
        Files.createSymbolicLink(staged.resolve("lib/link"), staged.resolve("lib/readme.txt"));
        assertThatThrownBy(() -> BundleArchive.writeFileList(staged)).hasMessageContaining("is not a plain file");
        Files.delete(staged.resolve("lib/link"));
        Files.writeString(staged.resolve("lib/a name"), "x");
        assertThatThrownBy(() -> BundleArchive.writeFileList(staged)).hasMessageContaining("'lib/a name' is not a name a bundle can list");
    }

    @Test
    void theInstallerNeverDeletesWhatItDidNotInstall() throws Exception {
        // found when tried: install.sh DIR ran rm -rf DIR, and a folder holding a user's file was left with the bundle only
        BundleArchive.Written w = BundleArchive.pack(staged, tmp.resolve("bundle"), 4096);
        Path mine = Files.createDirectories(tmp.resolve("opt"));
        Files.writeString(mine.resolve("my-notes.txt"), "mine\n");
        Installed r = install(tmp.resolve("bundle"), w.manifestSha256(), mine);
        assertThat(r.exit()).isEqualTo(3);
        assertThat(r.err()).contains("holds files that are not an Accelbridge install").contains("nothing was changed");
        assertThat(mine.resolve("my-notes.txt")).hasContent("mine");
        assertThat(mine.resolve("FILES.sha256")).doesNotExist();
        assertThat(leftovers()).isEmpty();
    }

    @Test
    void aReinstallWithATrailingSlashReplacesTheEarlierInstallAndLeavesNothingBeside() throws Exception {
        // found when tried: install.sh DIR/ put its staging folder inside DIR, removed both, and installed nothing
        BundleArchive.Written w = BundleArchive.pack(staged, tmp.resolve("bundle"), 4096);
        assertThat(install(tmp.resolve("bundle"), w.manifestSha256(), tmp.resolve("app")).exit()).isZero();
        Files.writeString(tmp.resolve("app/lib/readme.txt"), "edited by hand\n");
        Installed again = installArgs(tmp, tmp.resolve("bundle"), "--expect", w.manifestSha256(), tmp.resolve("app") + "/");
        assertThat(again.exit()).as(again.err()).isZero();
        assertThat(tmp.resolve("app/lib/readme.txt")).hasContent("hello");
        assertThat(Files.readAllBytes(tmp.resolve("app/lib/nested/data.bin"))).isEqualTo(payload);
        assertThat(leftovers()).isEmpty();
        try (var s = Files.list(tmp)) {
            assertThat(s.map(p -> p.getFileName().toString())).noneMatch(n -> n.contains(".old.") || n.contains(".listed"));
        }
    }

    @Test
    void aFileTheListDoesNotNameASetuidBitOrASpecialFileIsRefused() throws Exception {
        BundleArchive.writeFileList(staged);
        Files.writeString(staged.resolve("lib/extra.sh"), "echo not listed\n"); // after the list was written
        Installed unlisted = install(BundleArchive.packListed(staged, tmp.resolve("b1"), 4096), tmp.resolve("app"));
        assertThat(unlisted.exit()).isEqualTo(3);
        assertThat(unlisted.err()).contains("lib/extra.sh, which FILES.sha256 does not list");
        Files.delete(staged.resolve("lib/extra.sh"));

        Files.setAttribute(staged.resolve("bin/tool"), "unix:mode", 04755);
        BundleArchive.writeFileList(staged);
        Installed setuid = install(BundleArchive.packListed(staged, tmp.resolve("b2"), 4096), tmp.resolve("app"));
        assertThat(setuid.exit()).isEqualTo(3);
        assertThat(setuid.err()).contains("bin/tool with a setuid or setgid bit");
        Files.setAttribute(staged.resolve("bin/tool"), "unix:mode", 0755);

        BundleArchive.writeFileList(staged);
        assertThat(new ProcessBuilder("mkfifo", staged.resolve("lib/pipe").toString()).start().waitFor()).isZero();
        Installed fifo = install(BundleArchive.packListed(staged, tmp.resolve("b3"), 4096), tmp.resolve("app"));
        assertThat(fifo.exit()).isEqualTo(3);
        assertThat(fifo.err()).contains("lib/pipe, which is neither a file nor a folder");
        assertThat(tmp.resolve("app")).doesNotExist();
        assertThat(leftovers()).isEmpty();
    }

    @Test
    void aRelativeFolderIsTheCallersAndArgumentsAreChecked() throws Exception {
        BundleArchive.Written w = BundleArchive.pack(staged, tmp.resolve("bundle"), 4096);
        Path cwd = Files.createDirectories(tmp.resolve("work"));
        Installed r = installArgs(cwd, tmp.resolve("bundle"), "rel-app");
        assertThat(r.exit()).as(r.err()).isZero();
        assertThat(r.err()).contains("no --expect given: the parts are checked against MANIFEST.sha256, but the manifest itself is not");
        assertThat(cwd.resolve("rel-app/FILES.sha256")).exists();
        assertThat(tmp.resolve("bundle/rel-app")).doesNotExist();
        assertThat(installArgs(cwd, tmp.resolve("bundle"), "--expect").exit()).isEqualTo(2);
        assertThat(installArgs(cwd, tmp.resolve("bundle"), "--expect", "", "x").exit()).isEqualTo(2);
        assertThat(installArgs(cwd, tmp.resolve("bundle"), "x", "--expect", w.manifestSha256(), "y").err()).contains("one DIR only");
        assertThat(installArgs(cwd, tmp.resolve("bundle"), "--force", "x").err()).contains("unknown option '--force'");
    }

    @Test
    void sizesAreReadAsUsersWriteThem() {
        assertThat(Parts.parseSize("100M")).isEqualTo(100L << 20);
        assertThat(Parts.parseSize("2g")).isEqualTo(2L << 30);
        assertThat(Parts.parseSize("512KiB")).isEqualTo(512L << 10);
        assertThat(Parts.parseSize("4096")).isEqualTo(4096);
        for (String bad : List.of("0", "-1", "1T", "", "M", "1.5G")) {
            assertThatThrownBy(() -> Parts.parseSize(bad)).as(bad).isInstanceOf(IllegalArgumentException.class);
        }
    }

    private List<Path> leftovers() throws IOException {
        try (var s = Files.list(tmp)) {
            return s.filter(p -> p.getFileName().toString().contains(".partial.") || p.getFileName().toString().contains(".old.")).toList();
        }
    }

    private record Installed(int exit, String out, String err) {
    }

    private static Installed install(Path bundle, String expect, Path dest) throws Exception {
        return installArgs(bundle, bundle, "--expect", expect, dest.toString());
    }

    private static Installed install(BundleArchive.Written w, Path dest) throws Exception {
        return install(w.folder(), w.manifestSha256(), dest);
    }

    private static Installed installArgs(Path cwd, Path bundle, String... args) throws Exception {
        return installWith(java.util.Map.of(), cwd, bundle, args);
    }

    /** install.sh run by {@code /bin/sh} with {@code env} over this process's environment. */
    private static Installed installWith(java.util.Map<String, String> env, Path cwd, Path bundle, String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("/bin/sh", bundle.resolve("install.sh").toString()));
        cmd.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(cmd).directory(cwd.toFile());
        pb.environment().putAll(env);
        Process p = pb.start();
        p.getOutputStream().close();
        var out = java.util.concurrent.CompletableFuture.supplyAsync(() -> read(p.getInputStream()));
        var err = java.util.concurrent.CompletableFuture.supplyAsync(() -> read(p.getErrorStream()));
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        return new Installed(p.exitValue(), out.get(), err.get());
    }

    private static String read(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
