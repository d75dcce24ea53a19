package dev.accelbridge.browser.launch;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.stream.LongStream;

/**
 * Resident memory of a browser: the sum of the resident pages ({@code /proc/PID/statm}, what VmRSS reports) over its main
 * process and every descendant (renderer, GPU, utility processes). Linux only; empty elsewhere or when the process is
 * gone. Listing the descendants walks every process of the machine, which costs about a millisecond where reading the
 * tree's own counters costs a tenth of that, and a sweep of one-op models samples every case several times: so the list
 * is kept and made again at most every {@link #RELIST_NANOS} (or at once when one of its processes has gone). A process
 * younger than that may be missed by a sample; the main process never is. Each process is also counted under its type, read
 * once per listing from its command line ({@link #typeOf}).
 */
final class ProcessTreeMemory {
    /** How long a list of the tree's processes is used before it is made again. */
    static final long RELIST_NANOS = 250_000_000L;
    private static final boolean PROC = Files.isDirectory(Path.of("/proc/self"));
    private static final long PAGE = pageSize();

    private final long root;
    private long[] pids;
    private String[] types;
    private long listedAt;

    ProcessTreeMemory(long root) {
        this.root = root;
    }

    /** Bytes resident in the tree rooted at {@code pid}, listed now, or empty when it cannot be read. */
    static OptionalLong rss(long pid) {
        return new ProcessTreeMemory(pid).sample();
    }

    /** Bytes resident in the tree now, or empty when it cannot be read. */
    OptionalLong sample() {
        return sampleByType().map(t -> OptionalLong.of(t.totalBytes())).orElse(OptionalLong.empty());
    }

    /** Bytes resident in the tree now, in all and by process type, or empty when it cannot be read. */
    synchronized Optional<TreeMemory> sampleByType() {
        if (!PROC) {
            return Optional.empty();
        }
        boolean fresh = pids == null || System.nanoTime() - listedAt > RELIST_NANOS;
        if (fresh) {
            relist();
        }
        Optional<TreeMemory> total = sum(!fresh);
        if (total.isEmpty() && !fresh) { // one of them has gone: list again
            relist();
            total = sum(false);
        }
        return total;
    }

    /** The tree's sum; empty when the main process is gone, or (when {@code strict}) any process of the list is. */
    private Optional<TreeMemory> sum(boolean strict) {
        long total = 0;
        Map<String, Long> byType = new LinkedHashMap<>();
        for (int i = 0; i < pids.length; i++) {
            long r = resident(pids[i]);
            if (r < 0 && (strict || pids[i] == root)) {
                return Optional.empty();
            }
            total += Math.max(r, 0);
            if (r > 0) {
                byType.merge(types[i], r, Long::sum);
            }
        }
        return Optional.of(new TreeMemory(total, byType));
    }

    private void relist() {
        long[] kids = ProcessHandle.of(root).map(ph -> ph.descendants().mapToLong(ProcessHandle::pid).toArray()).orElse(new long[0]);
        pids = LongStream.concat(LongStream.of(root), LongStream.of(kids)).toArray();
        types = new String[pids.length];
        for (int i = 0; i < pids.length; i++) {
            types[i] = pids[i] == root ? TreeMemory.BROWSER : typeOf(commandLine(pids[i]));
        }
        listedAt = System.nanoTime();
    }

    /**
     * A process's type from its command line (arguments as the kernel keeps them, NUL-separated): Chromium's
     * {@code --type=renderer} (its GPU process {@code gpu-process}), Firefox's {@code -contentproc} with the kind last
     * ({@code tab}, {@code gpu}, {@code rdd}, {@code socket}, {@code utility}); a type that is not a plain word is
     * {@code other}, as is a process that gives none (a crash handler, a driver).
     */
    static String typeOf(String cmdline) {
        String[] args = cmdline.split("[\u0000 ]");
        String type = null;
        boolean content = false;
        for (String a : args) {
            if (a.startsWith("--type=")) {
                type = a.substring(7);
            } else if (a.equals("-contentproc")) {
                content = true;
            }
        }
        if (type == null && content && args.length > 0) {
            type = args[args.length - 1];
        }
        return type != null && type.matches("[a-z][a-z0-9-]{0,31}") ? type : "other";
    }

    private static String commandLine(long pid) {
        try {
            byte[] b = Files.readAllBytes(Path.of("/proc", Long.toString(pid), "cmdline"));
            return new String(b, 0, Math.min(b.length, 64 * 1024), java.nio.charset.StandardCharsets.ISO_8859_1);
        } catch (IOException | RuntimeException e) {
            return "";
        }
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
