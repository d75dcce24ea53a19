package dev.accelbridge.browser.launch;

import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.Caches;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;

/** Fresh, throw-away browser profile folders: every launch starts clean and leaves nothing behind. */
final class Profiles {
    private Profiles() {
    }

    /** A new empty folder in the temp dir, named after the browser so a leftover one is recognisable. */
    static Path fresh(BrowserKind kind) {
        try {
            return Files.createTempDirectory("accelbridge-" + kind.id() + "-profile-");
        } catch (IOException e) {
            throw new BrowserLaunchException("Cannot create a browser profile folder in " + System.getProperty("java.io.tmpdir")
                    + ": " + e.getMessage(), "check free space and permissions of the temp folder (-Djava.io.tmpdir)", e);
        }
    }

    /** Deletes a profile; retried once because a just-killed browser may still be writing into it. */
    static void delete(Path dir) {
        for (int attempt = 0; attempt < 3; attempt++) {
            try {
                Caches.deleteTree(dir);
                return;
            } catch (IOException | java.io.UncheckedIOException e) {
                try {
                    Thread.sleep(200);
                } catch (InterruptedException ie) {
                    Thread.currentThread().interrupt();
                    return;
                }
            }
        }
    }
}
