package dev.accelbridge.browser.npm;

import dev.accelbridge.core.fetch.TreeManifest;

import java.io.IOException;
import java.nio.file.Path;
import java.util.Base64;
import java.util.regex.Pattern;

/** npm's integrity strings (Subresource Integrity: {@code sha512-} and the digest in base64). */
final class Integrity {
    /** A sha512 integrity: 64 bytes in base64. */
    static final Pattern SRI_SHA512 = Pattern.compile("sha512-[A-Za-z0-9+/]{86}==");

    private Integrity() {
    }

    /** The sha512 integrity of a file's bytes. */
    static String sha512(Path file) throws IOException {
        return "sha512-" + Base64.getEncoder().encodeToString(TreeManifest.digest(file, "SHA-512"));
    }
}
