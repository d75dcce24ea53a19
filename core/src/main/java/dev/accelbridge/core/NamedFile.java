package dev.accelbridge.core;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;

/**
 * A file a user names on the command line for a secret or a setting (a token, a keystore and its password), read within
 * stated bounds: it must be a regular file (a FIFO nobody writes to hung {@code serve} without a word; {@code /dev/zero}
 * was read whole for one line until the heap ran out), of at most the size stated, and the message says which of these
 * it is not.
 */
@PublicApi
public final class NamedFile {
    /** The largest token or password file read: a line of text. */
    public static final int MAX_LINE_FILE = 4096;
    /** The largest keystore read: far above a keystore of a few certificates. */
    public static final long MAX_KEYSTORE = 1 << 20;

    private NamedFile() {
    }

    /**
     * Refuses {@code file} unless it is a regular file of at most {@code maxBytes}, before anything opens it.
     *
     * @param option the flag that named it, for the message ({@code --token-file})
     * @throws AccelbridgeException naming what the file is instead (missing, a folder, a FIFO or device, empty, too big)
     */
    public static void check(Path file, String option, long maxBytes) {
        String fix = "give " + option + " a regular file";
        if (!Files.exists(file)) {
            throw new AccelbridgeException(option + " " + file + " does not exist", fix);
        }
        if (Files.isDirectory(file)) {
            throw new AccelbridgeException(option + " " + file + " is a folder", fix);
        }
        if (!Files.isRegularFile(file)) {
            boolean link = Files.isSymbolicLink(file) && !Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS);
            throw new AccelbridgeException(option + " " + file + " is not a regular file (a FIFO, socket or device"
                    + (link ? ", through a link" : "") + "): it could block or never end", fix);
        }
        long size;
        try {
            size = Files.size(file);
        } catch (IOException e) {
            throw new AccelbridgeException("Cannot read " + option + " " + file + ": " + Untrusted.bounded(String.valueOf(e.getMessage()), 200), fix);
        }
        if (size == 0) {
            throw new AccelbridgeException(option + " " + file + " is empty", fix + " holding what it is for");
        }
        if (size > maxBytes) {
            throw new AccelbridgeException(String.format(java.util.Locale.ROOT, "%s %s is %,d bytes, above the %,d read", option, file, size,
                    maxBytes), fix + " of at most " + maxBytes + " bytes");
        }
    }

    /**
     * The first line of a small text file ({@link #MAX_LINE_FILE}), trimmed, held to {@link #check}; at most that many bytes
     * are read even if the file grows meanwhile.
     *
     * @throws AccelbridgeException when the file is not one to read, or its first line is empty
     */
    public static String firstLine(Path file, String option) {
        check(file, option, MAX_LINE_FILE);
        byte[] b;
        try (InputStream in = Files.newInputStream(file)) {
            b = in.readNBytes(MAX_LINE_FILE);
        } catch (IOException e) {
            throw new AccelbridgeException("Cannot read " + option + " " + file + ": " + Untrusted.bounded(String.valueOf(e.getMessage()), 200),
                    "give " + option + " a readable file");
        }
        String text = new String(b, StandardCharsets.UTF_8);
        int end = text.indexOf('\n');
        String line = (end < 0 ? text : text.substring(0, end)).trim();
        if (line.isEmpty()) {
            throw new AccelbridgeException(option + " " + file + " has an empty first line", "write it on the file's first line");
        }
        return line;
    }
}
