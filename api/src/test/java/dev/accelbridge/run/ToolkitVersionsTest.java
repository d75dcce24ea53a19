package dev.accelbridge.run;

import org.junit.jupiter.api.Test;

import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A run records how its JVM compiled: nothing for a default JVM, {@code jit=c1} for one capped at the first tier (as the
 * CLI's launcher starts it), read from the real JVM's flag in a child process.
 */
class ToolkitVersionsTest {
    /** What the child JVM prints: its recorded versions. */
    public static void main(String[] args) {
        System.out.print(ToolkitVersions.runtime());
    }

    @Test
    void aDefaultJvmRecordsNoJitAndAFirstTierOneSaysSo() throws Exception {
        assertThat(ToolkitVersions.runtime()).containsKeys("accelbridge", "java").doesNotContainKey("jit");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-XX:TieredStopAtLevel=1",
                "-cp", System.getProperty("java.class.path"), ToolkitVersionsTest.class.getName()).redirectErrorStream(true).start();
        assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(out).contains("jit=c1").contains("java=" + System.getProperty("java.version"));
    }
}
