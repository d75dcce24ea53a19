package dev.accelbridge.browser.page;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;

import static org.assertj.core.api.Assertions.assertThat;

/** A page module's rule run by Node on the tests' inputs, for a mirror test to compare with the Java side's. */
public final class NodeScript {
    private NodeScript() {
    }

    /** Runs the ES module {@code js} with Node; its output, once it has exited 0 within a minute. */
    public static String run(String name, String js) throws IOException, InterruptedException {
        Path f = Files.createTempFile(name, ".mjs");
        try {
            Files.writeString(f, js);
            Process p = new ProcessBuilder("node", f.toString()).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            assertThat(p.waitFor(60, TimeUnit.SECONDS)).isTrue();
            assertThat(p.exitValue()).as(out).isZero();
            return out;
        } finally {
            Files.deleteIfExists(f);
        }
    }
}
