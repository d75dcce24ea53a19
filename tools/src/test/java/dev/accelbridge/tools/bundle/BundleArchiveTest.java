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
            return s.filter(p -> p.getFileName().toString().contains(".partial.")).toList();
        }
    }

    private record Installed(int exit, String out, String err) {
    }

    private static Installed install(Path bundle, String expect, Path dest) throws Exception {
        Process p = new ProcessBuilder("sh", bundle.resolve("install.sh").toString(), "--expect", expect, dest.toString()).start();
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
