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
