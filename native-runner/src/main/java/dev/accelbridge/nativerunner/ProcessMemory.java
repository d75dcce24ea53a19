package dev.accelbridge.nativerunner;

import oshi.software.os.OSProcess;
import oshi.software.os.OperatingSystem;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

/**
 * This process's resident set size. On Linux it reads {@code /proc/self/status} (VmRSS; VmHWM is the kernel's
 * own peak, which writing {@code 5} to {@code /proc/self/clear_refs} resets at the start of a case); elsewhere
 * OSHI's {@link OSProcess#getResidentMemory()}. -1 where neither answers.
 */
final class ProcessMemory {
    private static final Path STATUS = Path.of("/proc/self/status");
    private static final Path CLEAR_REFS = Path.of("/proc/self/clear_refs");
    private static final boolean PROC = Files.isReadable(STATUS);

    private ProcessMemory() {
    }

    /** Current RSS in bytes, or -1. */
    static long rss() {
        if (PROC) {
            long v = statusField("VmRSS:");
            if (v >= 0) {
                return v;
            }
        }
        try {
            OperatingSystem os = HostDetector.systemInfo().getOperatingSystem();
            OSProcess p = os.getProcess(os.getProcessId());
            return p == null ? -1 : p.getResidentMemory();
        } catch (RuntimeException | LinkageError e) {
            return -1;
        }
    }

    /** Resets the kernel's peak-RSS counter; true when it worked (Linux 4.0+, own process). */
    static boolean resetKernelPeak() {
        if (!PROC) {
            return false;
        }
        try {
            Files.writeString(CLEAR_REFS, "5");
            return true;
        } catch (IOException | SecurityException | UnsupportedOperationException e) {
            return false;
        }
    }

    /** The kernel's peak RSS since the last reset (VmHWM), or -1. */
    static long kernelPeak() {
        return PROC ? statusField("VmHWM:") : -1;
    }

    private static long statusField(String key) {
        try {
            for (String line : Files.readAllLines(STATUS)) {
                if (line.startsWith(key)) {
                    String[] parts = line.substring(key.length()).trim().split("\\s+");
                    return Long.parseLong(parts[0]) * 1024L; // reported in kB
                }
            }
        } catch (IOException | NumberFormatException e) {
            return -1;
        }
        return -1;
    }

    /** A daemon thread that samples RSS at a fixed interval and keeps the highest value seen. */
    static final class Sampler implements AutoCloseable {
        private final AtomicLong peak = new AtomicLong(-1);
        private final Thread thread;
        private volatile boolean running = true;

        Sampler(Duration interval) {
            long ms = Math.max(1, interval.toMillis());
            sample();
            thread = new Thread(() -> {
                while (running) {
                    sample();
                    try {
                        Thread.sleep(ms);
                    } catch (InterruptedException e) {
                        return;
                    }
                }
            }, "accelbridge-rss-sampler");
            thread.setDaemon(true);
            thread.start();
        }

        private void sample() {
            long v = rss();
            peak.accumulateAndGet(v, Math::max);
        }

        /** The highest RSS sampled so far. */
        long peak() {
            return peak.get();
        }

        @Override
        public void close() {
            running = false;
            thread.interrupt();
            try {
                thread.join(1000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            sample();
        }
    }
}
