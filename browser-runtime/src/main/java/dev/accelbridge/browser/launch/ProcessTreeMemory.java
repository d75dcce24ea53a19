package dev.accelbridge.browser.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.OptionalLong;
import java.util.stream.LongStream;

/**
 * Resident memory of a browser: the sum of the resident pages ({@code /proc/PID/statm}, what VmRSS reports) over its main
 * process and every descendant (renderer, GPU, utility processes). Linux only; empty elsewhere or when the process is
 * gone. Listing the descendants walks every process of the machine, which costs about a millisecond where reading the
 * tree's own counters costs a tenth of that, and a sweep of one-op models samples every case several times: so the list
 * is kept and made again at most every {@link #RELIST_NANOS} (or at once when one of its processes has gone). A process
 * younger than that may be missed by a sample; the main process never is.
 */
final class ProcessTreeMemory {
    /** How long a list of the tree's processes is used before it is made again. */
    static final long RELIST_NANOS = 250_000_000L;
    private static final boolean PROC = Files.isDirectory(Path.of("/proc/self"));
    private static final long PAGE = pageSize();

    private final long root;
    private long[] pids;
    private long listedAt;

    ProcessTreeMemory(long root) {
        this.root = root;
    }

    /** Bytes resident in the tree rooted at {@code pid}, listed now, or empty when it cannot be read. */
    static OptionalLong rss(long pid) {
        return new ProcessTreeMemory(pid).sample();
    }

    /** Bytes resident in the tree now, or empty when it cannot be read. */
    synchronized OptionalLong sample() {
        if (!PROC) {
            return OptionalLong.empty();
        }
        boolean fresh = pids == null || System.nanoTime() - listedAt > RELIST_NANOS;
        if (fresh) {
            relist();
        }
        OptionalLong total = sum(!fresh);
        if (total.isEmpty() && !fresh) { // one of them has gone: list again
            relist();
            total = sum(false);
        }
        return total;
    }

    /** The tree's sum; empty when the main process is gone, or (when {@code strict}) any process of the list is. */
    private OptionalLong sum(boolean strict) {
        long total = 0;
        for (long pid : pids) {
            long r = resident(pid);
            if (r < 0 && (strict || pid == root)) {
                return OptionalLong.empty();
            }
            total += Math.max(r, 0);
        }
        return OptionalLong.of(total);
    }

    private void relist() {
        long[] kids = ProcessHandle.of(root).map(ph -> ph.descendants().mapToLong(ProcessHandle::pid).toArray()).orElse(new long[0]);
        pids = LongStream.concat(LongStream.of(root), LongStream.of(kids)).toArray();
        listedAt = System.nanoTime();
    }

    /** The process's resident bytes, or -1 when it cannot be read (it ended). */
    private static long resident(long pid) {
        try {
            String s = Files.readString(Path.of("/proc", Long.toString(pid), "statm"));
            int a = s.indexOf(' ');
            int b = s.indexOf(' ', a + 1);
            return Long.parseLong(s.substring(a + 1, b)) * PAGE;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }

    /** The kernel's page size, from the first mapping of this process's smaps (4 KiB where it cannot be read). */
    private static long pageSize() {
        try (java.io.BufferedReader r = Files.newBufferedReader(Path.of("/proc/self/smaps"))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                if (line.startsWith("KernelPageSize:")) {
                    return Long.parseLong(line.substring(15).trim().split("\\s+")[0]) * 1024L;
                }
            }
        } catch (IOException | RuntimeException e) {
            // not Linux, or no smaps: the common size
        }
        return 4096;
    }
}
