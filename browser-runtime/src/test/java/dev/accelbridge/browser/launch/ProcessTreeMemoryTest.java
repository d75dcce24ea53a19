package dev.accelbridge.browser.launch;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledOnOs;
import org.junit.jupiter.api.condition.OS;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** A process tree's resident memory, its list kept between samples: real processes, read from /proc. */
@EnabledOnOs(OS.LINUX)
class ProcessTreeMemoryTest {
    @Test
    void aTreeCountsItsChildrenAndAChildThatEndsIsDroppedAtOnce() throws Exception {
        Process child = new ProcessBuilder("sleep", "60").start();
        try {
            long kid = vmRssKb(child.pid()) * 1024;
            // other tests of this JVM may have left processes of their own beside it (a driver kept for the next test)
            long others = ProcessHandle.current().descendants().filter(h -> h.pid() != child.pid()).mapToLong(h -> {
                try {
                    return vmRssKb(h.pid()) * 1024;
                } catch (Exception gone) {
                    return 0;
                }
            }).sum();
            ProcessTreeMemory tree = new ProcessTreeMemory(ProcessHandle.current().pid());
            long ownBefore = vmRssKb(ProcessHandle.current().pid()) * 1024;
            long both = tree.sample().orElseThrow();
            long ownAfter = vmRssKb(ProcessHandle.current().pid()) * 1024;
            long own = Math.max(ownBefore, ownAfter);
            // the JVM's own figure moves between reads (a young JVM grows by a quarter in moments: read on both sides of the
            // sample); the child's is there in full
            assertThat(both).isGreaterThanOrEqualTo(kid).isBetween((long) (Math.min(ownBefore, ownAfter) * 0.9) + kid,
                    (long) (own * 1.1) + kid + others);
            child.destroyForcibly().waitFor(10, TimeUnit.SECONDS);
            long after = tree.sample().orElseThrow(); // the kept list names a process that has gone: listed again
            assertThat(after).isLessThan(both + own / 4).isPositive();
        } finally {
            child.destroyForcibly();
        }
    }

    @Test
    void aProcessIsCountedUnderTheTypeItsCommandLineGives() throws Exception {
        // Chromium rewrites its command line as one space-separated title; Firefox keeps NUL-separated arguments
        assertThat(ProcessTreeMemory.typeOf("/usr/lib/chromium/chromium --type=renderer --enable-features=X")).isEqualTo("renderer");
        assertThat(ProcessTreeMemory.typeOf("chromium\u0000--type=gpu-process\u0000--no-sandbox")).isEqualTo("gpu-process");
        assertThat(ProcessTreeMemory.typeOf("/usr/lib/firefox-esr/firefox-esr\u0000-contentproc\u0000-isForBrowser\u00001\u0000tab"))
                .isEqualTo("tab");
        assertThat(ProcessTreeMemory.typeOf("/usr/bin/sleep 60")).isEqualTo("other");
        assertThat(ProcessTreeMemory.typeOf("x --type=Renderer\u001b[2J")).as("not a plain word: not quoted anywhere").isEqualTo("other");
        assertThat(ProcessTreeMemory.typeOf("")).isEqualTo("other");
        // the tree's own processes: the main one is the browser, a child without a type is other
        Process child = new ProcessBuilder("sleep", "60").start();
        try {
            TreeMemory t = new ProcessTreeMemory(ProcessHandle.current().pid()).sampleByType().orElseThrow();
            assertThat(t.byType()).containsKeys(TreeMemory.BROWSER, "other");
            assertThat(t.byType().values().stream().mapToLong(Long::longValue).sum()).isEqualTo(t.totalBytes());
        } finally {
            child.destroyForcibly();
        }
    }

    @Test
    void aTreeWhoseMainProcessHasEndedHasNoFigure() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor(10, TimeUnit.SECONDS);
        assertThat(new ProcessTreeMemory(p.pid()).sample()).isEmpty();
        assertThat(ProcessTreeMemory.rss(p.pid())).isEmpty();
    }

    private static long vmRssKb(long pid) throws Exception {
        return Files.readAllLines(Path.of("/proc", Long.toString(pid), "status")).stream().filter(l -> l.startsWith("VmRSS:"))
                .mapToLong(l -> Long.parseLong(l.substring(6).trim().split("\\s+")[0])).findFirst().orElseThrow();
    }
}
