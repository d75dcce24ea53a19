package dev.accelbridge.core.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A file committed beside the code that makes it (a generated schema): a test holds the file to what the code makes now,
 * and with {@code ACCELBRIDGE_WRITE_DOCS=1} writes it instead, to be reviewed as a diff.
 */
public final class CommittedFile {
    private CommittedFile() {
    }

    /**
     * Asserts that {@code file} holds {@code now}, after writing it there when asked to.
     *
     * @param how the command that writes it again, said when it differs
     */
    public static void holds(Path file, String now, String how) throws IOException {
        if ("1".equals(System.getenv("ACCELBRIDGE_WRITE_DOCS"))) {
            Files.writeString(file, now, StandardCharsets.UTF_8);
        }
        assertThat(Files.readString(file, StandardCharsets.UTF_8)).as(how).isEqualTo(now);
    }
}
