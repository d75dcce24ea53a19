package dev.accelbridge.core.fetch;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * A second process obtaining the same entry (for {@link CacheEntryTest}): {@code ROOT FILLS_LOG READY_FILE}. It says it has
 * started by creating READY_FILE, then obtains the entry with a slow fill that appends a line to FILLS_LOG, and prints the
 * manifest it verified.
 */
public final class Contender {
    public static void main(String[] args) throws Exception {
        Path root = Path.of(args[0]);
        Path fills = Path.of(args[1]);
        Files.createFile(Path.of(args[2]));
        CacheEntry.Verified v = new CacheEntry(root, "pkg", "shared@1.0.0").obtain("shared 1.0.0",
                into -> CacheEntryTest.slowFill(into, fills, "child"), CacheEntry.Check.NONE);
        System.out.println(v.manifest());
    }

    static void log(Path fills, String who) throws java.io.IOException {
        Files.writeString(fills, who + "\n", StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    private Contender() {
    }
}
