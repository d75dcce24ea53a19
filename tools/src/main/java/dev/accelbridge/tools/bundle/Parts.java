package dev.accelbridge.tools.bundle;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;

/**
 * A stream cut into files of at most {@code partSize} bytes ({@code NAME.000}, {@code NAME.001}, ...), each part's
 * sha256 taken as it is written: what {@code MANIFEST.sha256} lists, in order.
 */
final class Parts extends OutputStream {
    /** One written part: its path relative to the bundle folder, its size and sha256. */
    record Part(String path, long bytes, String sha256) {
    }

    private final Path folder;
    private final String name;
    private final long partSize;
    private final List<Part> written = new ArrayList<>();
    private OutputStream current;
    private MessageDigest digest;
    private long inPart;

    /**
     * @param folder   where the parts go (created)
     * @param name     the archive's name, each part's stem
     * @param partSize the most bytes a part holds (at least 1)
     */
    Parts(Path folder, String name, long partSize) throws IOException {
        if (partSize < 1) {
            throw new IllegalArgumentException("a part holds at least one byte, not " + partSize);
        }
        this.folder = Files.createDirectories(folder);
        this.name = name;
        this.partSize = partSize;
    }

    @Override
    public void write(int b) throws IOException {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        while (len > 0) {
            if (current == null || inPart == partSize) {
                next();
            }
            int n = (int) Math.min(len, partSize - inPart);
            current.write(b, off, n);
            digest.update(b, off, n);
            inPart += n;
            off += n;
            len -= n;
        }
    }

    private void next() throws IOException {
        finish();
        String file = String.format(Locale.ROOT, "%s.%03d", name, written.size());
        current = Files.newOutputStream(folder.resolve(file));
        try {
            digest = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
        inPart = 0;
        written.add(new Part(folder.getFileName() + "/" + file, -1, null));
    }

    private void finish() throws IOException {
        if (current != null) {
            current.close();
            Part open = written.remove(written.size() - 1);
            written.add(new Part(open.path(), inPart, HexFormat.of().formatHex(digest.digest())));
            current = null;
        }
    }

    @Override
    public void close() throws IOException {
        finish();
    }

    /** The parts written, in order (complete once closed). */
    List<Part> parts() {
        return List.copyOf(written);
    }

    /** The manifest's text: one {@code sha256sum} line per part, in order. */
    static String manifest(List<Part> parts) {
        StringBuilder b = new StringBuilder();
        parts.forEach(p -> b.append(p.sha256()).append("  ").append(p.path()).append('\n'));
        return b.toString();
    }

    /**
     * A size as users write it: bytes, or a number with {@code K}, {@code M} or {@code G} (powers of 1024; {@code 100M}).
     *
     * @throws IllegalArgumentException naming the forms it takes
     */
    static long parseSize(String text) {
        String t = text == null ? "" : text.strip().toUpperCase(Locale.ROOT);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(\\d{1,12})([KMG]I?B?|B)?").matcher(t);
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + text + "' is not a size: give bytes or a number with K, M or G (100M)");
        }
        long n = Long.parseLong(m.group(1));
        String unit = m.group(2) == null ? "B" : m.group(2).substring(0, 1);
        long size = switch (unit) {
            case "K" -> n << 10;
            case "M" -> n << 20;
            case "G" -> n << 30;
            default -> n;
        };
        if (size < 1) {
            throw new IllegalArgumentException("a part must hold at least one byte, not '" + text + "'");
        }
        return size;
    }
}
