package dev.accelbridge.browser.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.stream.Stream;

/**
 * Resident memory of a browser: the sum of VmRSS over its main process and every descendant (renderer, GPU,
 * utility processes), read from {@code /proc}. Linux only; empty elsewhere or when the process is gone.
 */
final class ProcessTreeMemory {
    private ProcessTreeMemory() {
    }

    /** Bytes resident in the tree rooted at {@code pid}, or empty when it cannot be read. */
    public static OptionalLong rss(long pid) {
        if (!Files.isDirectory(Path.of("/proc/self"))) {
            return OptionalLong.empty();
        }
        OptionalLong root = vmRss(pid);
        if (root.isEmpty()) {
            return root;
        }
        long total = root.getAsLong();
        try (Stream<ProcessHandle> kids = ProcessHandle.of(pid).map(ProcessHandle::descendants).orElse(Stream.empty())) {
            total += kids.mapToLong(ph -> vmRss(ph.pid()).orElse(0)).sum();
        }
        return OptionalLong.of(total);
    }

    private static OptionalLong vmRss(long pid) {
        try {
            for (String line : Files.readAllLines(Path.of("/proc", Long.toString(pid), "status"))) {
                if (line.startsWith("VmRSS:")) {
                    String[] f = line.substring(6).trim().split("\\s+");
                    return OptionalLong.of(Long.parseLong(f[0]) * 1024L);
                }
            }
            return OptionalLong.empty();
        } catch (IOException | RuntimeException e) {
            // The process ended between listing and reading: it holds no memory any more.
            return OptionalLong.empty();
        }
    }
}
