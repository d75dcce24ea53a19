package dev.accelbridge.core.fetch;

import dev.accelbridge.core.Untrusted;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HexFormat;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * What a folder of fetched code held when it was made: every regular file's size, sha256 and executable bit, and every
 * folder, by path relative to the root. It is made once, at unpacking, and held against the folder at every use: a file
 * changed, added, removed or made executable is a mismatch that names the file and both hashes. A folder holding a
 * symbolic link, a hard link (a file with more than one name: another user's file could be reached through it), a device
 * or a pipe has no manifest at all.
 *
 * @param files every regular file: path → entry
 * @param dirs  every folder below the root
 */
public record TreeManifest(SortedMap<String, FileEntry> files, SortedSet<String> dirs) {
    /** The most files a fetched tree may hold. */
    public static final int MAX_FILES = 200_000;
    /** The most bytes a fetched tree may hold. */
    public static final long MAX_BYTES = 8L << 30;

    /**
     * One file.
     *
     * @param size       its size in bytes
     * @param sha256     its sha256, lower-case hex
     * @param executable whether its owner may execute it
     */
    public record FileEntry(long size, String sha256, boolean executable) {
    }

    public TreeManifest {
        files = Collections.unmodifiableSortedMap(new TreeMap<>(files));
        dirs = Collections.unmodifiableSortedSet(new TreeSet<>(dirs));
    }

    /**
     * The manifest of {@code root} as it is now, leaving out the names in {@code skip} (at the root only).
     *
     * @throws IOException when the tree holds a link or a special file, exceeds the bounds, or cannot be read
     */
    public static TreeManifest of(Path root, Set<String> skip) throws IOException {
        SortedMap<String, FileEntry> files = new TreeMap<>();
        SortedSet<String> dirs = new TreeSet<>();
        long[] bytes = {0};
        for (Path p : walk(root, skip)) {
            String rel = relative(root, p);
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (a.isDirectory()) {
                dirs.add(rel);
                continue;
            }
            refuseOddFile(p, a);
            bytes[0] += a.size();
            if (files.size() >= MAX_FILES || bytes[0] > MAX_BYTES) {
                throw new IOException(root + " holds more than " + MAX_FILES + " files or " + (MAX_BYTES >> 30) + " GiB: not a fetched package");
            }
            files.put(rel, new FileEntry(a.size(), sha256(p), Files.isExecutable(p)));
        }
        return new TreeManifest(files, dirs);
    }

    /**
     * The first way {@code root} differs from this manifest, in words naming the file and both hashes; empty when it
     * holds exactly what the manifest says.
     */
    public Optional<String> mismatch(Path root, Set<String> skip) throws IOException {
        Set<String> seenFiles = new TreeSet<>();
        for (Path p : walk(root, skip)) {
            String rel = relative(root, p);
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (a.isDirectory()) {
                if (!dirs.contains(rel)) {
                    return Optional.of("the folder " + rel + " was not there when it was unpacked");
                }
                continue;
            }
            if (a.isSymbolicLink()) {
                return Optional.of(rel + " is now a symbolic link");
            }
            FileEntry want = files.get(rel);
            if (want == null) {
                return Optional.of(rel + " was not there when it was unpacked (sha256 " + sha256(p) + ")");
            }
            if (!a.isRegularFile() || links(p) > 1) {
                return Optional.of(rel + " is now " + (a.isRegularFile() ? "a hard link (" + links(p) + " names)" : "not a regular file"));
            }
            seenFiles.add(rel);
            if (a.size() != want.size()) {
                return Optional.of(rel + " has " + a.size() + " bytes and sha256 " + sha256(p) + "; recorded at unpacking: "
                        + want.size() + " bytes, sha256 " + want.sha256());
            }
            String got = sha256(p);
            if (!got.equals(want.sha256())) {
                return Optional.of(rel + " has sha256 " + got + "; recorded at unpacking: " + want.sha256());
            }
            if (Files.isExecutable(p) != want.executable()) {
                return Optional.of(rel + (want.executable() ? " is no longer executable" : " was made executable"));
            }
        }
        for (String f : files.keySet()) {
            if (!seenFiles.contains(f)) {
                return Optional.of(f + " is missing (recorded at unpacking: sha256 " + files.get(f).sha256() + ")");
            }
        }
        return Optional.empty();
    }

    /** The sha256 of the manifest's own text: one hash that names the whole tree, for provenance. */
    public String digest() {
        return sha256(text().getBytes(StandardCharsets.UTF_8));
    }

    /** The bytes of every file added up. */
    public long totalBytes() {
        return files.values().stream().mapToLong(FileEntry::size).sum();
    }

    /** The manifest as lines: {@code d PATH} per folder, {@code f SIZE SHA256 x|- PATH} per file, sorted. */
    public String text() {
        StringBuilder b = new StringBuilder();
        dirs.forEach(d -> b.append("d ").append(d).append('\n'));
        files.forEach((p, e) -> b.append("f ").append(e.size()).append(' ').append(e.sha256()).append(' ')
                .append(e.executable() ? 'x' : '-').append(' ').append(p).append('\n'));
        return b.toString();
    }

    /**
     * Reads the lines {@link #text()} wrote; lines of another kind are the caller's.
     *
     * @throws IOException when a manifest line is malformed
     */
    public static TreeManifest parse(List<String> lines) throws IOException {
        SortedMap<String, FileEntry> files = new TreeMap<>();
        SortedSet<String> dirs = new TreeSet<>();
        for (String line : lines) {
            if (line.startsWith("d ")) {
                dirs.add(checkedPath(line.substring(2)));
            } else if (line.startsWith("f ")) {
                String[] f = line.split(" ", 5);
                if (f.length != 5 || !f[2].matches("[0-9a-f]{64}") || !(f[3].equals("x") || f[3].equals("-"))) {
                    throw new IOException("a malformed manifest line: " + Untrusted.quote(line));
                }
                try {
                    files.put(checkedPath(f[4]), new FileEntry(Long.parseLong(f[1]), f[2], f[3].equals("x")));
                } catch (NumberFormatException e) {
                    throw new IOException("a malformed size in a manifest line: " + Untrusted.quote(line), e);
                }
            }
        }
        return new TreeManifest(files, dirs);
    }

    /** The sha256 of a file, lower-case hex. */
    public static String sha256(Path file) throws IOException {
        return HexFormat.of().formatHex(digest(file, "SHA-256"));
    }

    /** The digest of a file's bytes by {@code algorithm} ({@code SHA-256}, {@code SHA-512}, {@code SHA-1}). */
    public static byte[] digest(Path file, String algorithm) throws IOException {
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            return digest(in, algorithm);
        }
    }

    /** The sha256 of what {@code in} gives to its end (a class path resource), lower-case hex; the stream stays open. */
    public static String sha256(InputStream in) throws IOException {
        return HexFormat.of().formatHex(digest(in, "SHA-256"));
    }

    private static byte[] digest(InputStream in, String algorithm) throws IOException {
        MessageDigest d = digester(algorithm);
        byte[] buf = new byte[1 << 16];
        for (int n; (n = in.read(buf)) > 0; ) {
            d.update(buf, 0, n);
        }
        return d.digest();
    }

    static String sha256(byte[] bytes) {
        return HexFormat.of().formatHex(digester("SHA-256").digest(bytes));
    }

    private static MessageDigest digester(String algorithm) {
        try {
            return MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(algorithm + " is part of every Java runtime", e);
        }
    }

    /** Every path below {@code root} (not the root), names in {@code skip} at the root left out; links are not followed. */
    static List<Path> walk(Path root, Set<String> skip) throws IOException {
        List<Path> out = new ArrayList<>();
        try (var s = Files.walk(root)) {
            s.filter(p -> !p.equals(root)).filter(p -> {
                Path top = root.relativize(p).getName(0);
                return !skip.contains(top.toString());
            }).forEach(out::add);
        }
        if (out.size() > MAX_FILES * 2) {
            throw new IOException(root + " holds more than " + MAX_FILES * 2 + " entries: not a fetched package");
        }
        return out;
    }

    /** How many names a file has (1 for a file with no hard links); 1 where the file system does not say. */
    static int links(Path p) throws IOException {
        if (!Ownership.unix()) {
            return 1;
        }
        return ((Number) Files.getAttribute(p, "unix:nlink", LinkOption.NOFOLLOW_LINKS)).intValue();
    }

    private static void refuseOddFile(Path p, BasicFileAttributes a) throws IOException {
        if (a.isSymbolicLink()) {
            throw new IOException(p + " is a symbolic link: a fetched package may hold none");
        }
        if (!a.isRegularFile()) {
            throw new IOException(p + " is not a regular file (a device, a pipe or a socket): a fetched package may hold none");
        }
        if (links(p) > 1) {
            throw new IOException(p + " is a hard link (" + links(p) + " names): a fetched package may hold none");
        }
    }

    private static String relative(Path root, Path p) throws IOException {
        String rel = root.relativize(p).toString().replace('\\', '/');
        return checkedPath(rel);
    }

    private static String checkedPath(String rel) throws IOException {
        if (rel.isEmpty() || rel.length() > 1024 || rel.chars().anyMatch(Character::isISOControl) || rel.startsWith("/")
                || ("/" + rel + "/").contains("/../")) {
            throw new IOException("the name " + Untrusted.quote(rel) + " cannot be in a fetched package");
        }
        return rel;
    }
}
