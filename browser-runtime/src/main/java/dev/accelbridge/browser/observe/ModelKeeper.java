package dev.accelbridge.browser.observe;

import dev.accelbridge.core.AccelbridgeException;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Optional;

/**
 * Moves a session's model from the realm that holds its copy to a file, part by part (8 MiB a part, so no part and no
 * whole model sits in this heap), hashing what comes; the file is named by that hash, and the realm's copy let go once
 * the file is whole. What the page said of its size and hash bounds and checks the reading, and is believed for nothing
 * else.
 */
final class ModelKeeper {
    /** The most base64 characters one part may be: 8 MiB of bytes. */
    static final int PART_CHARS = ((8 << 20) + 2) / 3 * 4;

    private ModelKeeper() {
    }

    static Optional<PageObserver.KeptModel> keep(Realms.Realm r, Observed.Session s, Path dir, long maxBytes) {
        if (s.byteLength() <= 0 || s.byteLength() > maxBytes) {
            return Optional.empty();
        }
        try {
            Files.createDirectories(dir);
            Path part = Files.createTempFile(dir, "model-", ".part");
            MessageDigest sha = MessageDigest.getInstance("SHA-256");
            long size = 0;
            try (OutputStream out = Files.newOutputStream(part)) {
                while (size < s.byteLength()) {
                    Object b64 = r.ask("o.modelPart(" + s.id() + ", " + size + ")");
                    if (!(b64 instanceof String text) || text.isEmpty() || text.length() > PART_CHARS) {
                        Files.deleteIfExists(part);
                        return Optional.empty();
                    }
                    byte[] bytes = Base64.getDecoder().decode(text);
                    size += bytes.length;
                    if (size > s.byteLength()) {
                        Files.deleteIfExists(part);
                        return Optional.empty();
                    }
                    sha.update(bytes);
                    out.write(bytes);
                }
            }
            String hex = HexFormat.of().formatHex(sha.digest());
            if (s.sha256() != null && !s.sha256().equals(hex)) {
                Files.deleteIfExists(part); // what came is not what the page hashed when onnxruntime-web was given it
                return Optional.empty();
            }
            Path file = Files.move(part, dir.resolve(hex + ".onnx"), StandardCopyOption.REPLACE_EXISTING);
            r.ask("o.handOver(" + s.id() + ")");
            return Optional.of(new PageObserver.KeptModel(file, hex, size));
        } catch (IllegalArgumentException e) {
            return Optional.empty(); // not base64
        } catch (NoSuchAlgorithmException e) {
            throw new AccelbridgeException("this JVM has no SHA-256", null);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
