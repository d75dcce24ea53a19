package dev.accelbridge.tools.bundle;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import dev.accelbridge.core.fetch.TreeManifest;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * A staged folder made into a bundle: its files' list ({@code FILES.sha256}, checked after unpacking), one gzip'd tar of
 * it cut into {@link Parts}, the parts' {@code MANIFEST.sha256} and the {@code install.sh} that checks them on the target.
 * The archive is made by the system's {@code tar}, the tool that unpacks it there.
 */
final class BundleArchive {
    /** The archive's name; its parts are {@code parts/NAME.NNN}. */
    static final String ARCHIVE = "accelbridge.tar.gz";
    /** The names a staged file may have: what {@code sha256sum --check} and a shell read back unquoted. */
    private static final Pattern PLAIN = Pattern.compile("[A-Za-z0-9._+@/-]+");
    private static final long TAR_TIMEOUT_MIN = 30;

    private BundleArchive() {
    }

    /** What was written: the bundle folder, its parts, and the manifest's sha256 (what {@code install.sh --expect} checks). */
    record Written(Path folder, List<Parts.Part> parts, String manifestSha256) {
        long bytes() {
            return parts.stream().mapToLong(Parts.Part::bytes).sum();
        }
    }

    /**
     * Packs {@code staged} into {@code out} (which must not hold a bundle yet): {@code FILES.sha256} written into the
     * staged folder first, then {@code parts/}, {@code MANIFEST.sha256} and {@code install.sh}.
     */
    static Written pack(Path staged, Path out, long partSize) throws IOException {
        writeFileList(staged);
        return packListed(staged, out, partSize);
    }

    /** {@link #pack} of a folder whose {@code FILES.sha256} is already written. */
    static Written packListed(Path staged, Path out, long partSize) throws IOException {
        Files.createDirectories(out);
        if (Files.exists(out.resolve("MANIFEST.sha256")) || Files.exists(out.resolve("parts"))) {
            throw new IOException(out + " already holds a bundle");
        }
        List<Parts.Part> parts;
        try (Parts sink = new Parts(out.resolve("parts"), ARCHIVE, partSize)) {
            tar(staged, sink);
            sink.close();
            parts = sink.parts();
        }
        byte[] manifest = Parts.manifest(parts).getBytes(StandardCharsets.US_ASCII);
        Files.write(out.resolve("MANIFEST.sha256"), manifest);
        Path install = out.resolve("install.sh");
        try (InputStream in = BundleArchive.class.getResourceAsStream("install.sh")) {
            Files.write(install, in.readAllBytes());
        }
        Files.setPosixFilePermissions(install, PosixFilePermissions.fromString("rwxr-xr-x"));
        return new Written(out, parts, TreeManifest.sha256(new java.io.ByteArrayInputStream(manifest)));
    }

    /** {@code FILES.sha256}: every regular file of {@code staged} with its sha256, as {@code sha256sum} writes it. */
    static void writeFileList(Path staged) throws IOException {
        StringBuilder b = new StringBuilder();
        List<Path> files;
        try (var s = Files.walk(staged)) {
            files = s.filter(p -> !Files.isDirectory(p) && !p.equals(staged.resolve("FILES.sha256"))).sorted().toList();
        }
        for (Path p : files) {
            String rel = staged.relativize(p).toString();
            if (Files.isSymbolicLink(p) || !Files.isRegularFile(p)) {
                throw new IOException(p + " is not a plain file: a bundle holds files and folders only");
            }
            if (!PLAIN.matcher(rel).matches()) {
                throw new IOException("'" + rel + "' is not a name a bundle can list (letters, digits and ._+@/- only)");
            }
            b.append(TreeManifest.sha256(p)).append("  ").append(rel).append('\n');
        }
        Files.writeString(staged.resolve("FILES.sha256"), b.toString(), StandardCharsets.US_ASCII);
    }

    /** {@code tar -czf - .} of {@code staged}, its output streamed into {@code sink}. */
    private static void tar(Path staged, java.io.OutputStream sink) throws IOException {
        Process p = new ProcessBuilder("tar", "--numeric-owner", "--owner=0", "--group=0", "-czf", "-", "-C", staged.toString(), ".")
                .redirectError(ProcessBuilder.Redirect.PIPE).start();
        p.getOutputStream().close();
        CompletableFuture<String> err = CompletableFuture.supplyAsync(() -> {
            try {
                return new String(p.getErrorStream().readNBytes(4096), StandardCharsets.UTF_8).strip();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        });
        try (InputStream in = p.getInputStream()) {
            in.transferTo(sink);
        }
        try {
            if (!p.waitFor(TAR_TIMEOUT_MIN, TimeUnit.MINUTES) || p.exitValue() != 0) {
                p.destroyForcibly();
                throw new IOException("tar could not pack " + staged + ": " + err.getNow(""));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            p.destroyForcibly();
            throw new IOException("interrupted while packing " + staged, e);
        }
    }
}
