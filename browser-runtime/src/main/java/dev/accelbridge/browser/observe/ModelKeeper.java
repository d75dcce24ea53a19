package dev.accelbridge.browser.observe;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.Bytes;
import dev.accelbridge.core.fetch.TreeManifest;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * Moves a session's model, and the external data files mounted for it, from the realm that holds them to a folder of
 * their own: written by the browser itself where the driver has it download them, else part by part (8 MiB a part, so
 * no part and no whole model sits in this heap), hashed here; the model is named by that hash, each external file by the
 * path its graph names it by (a plain relative path, checked), and the realm's copies are let go once the files are
 * whole. What the page said of sizes bounds the reading; its hashes are believed for nothing. A run's tensors over the
 * report's bound come to disk the same way.
 */
final class ModelKeeper {
    /** The most base64 characters one part may be: 8 MiB of bytes. */
    static final int PART_CHARS = ((8 << 20) + 2) / 3 * 4;
    /** A path an external file may be kept under: plain relative names, no parent steps. */
    private static final Pattern PLAIN = Pattern.compile("(?!.*(^|/)\\.\\.?(/|$))[A-Za-z0-9_.+-]+(/[A-Za-z0-9_.+-]+){0,7}");

    private ModelKeeper() {
    }

    static Optional<PageObserver.KeptModel> keep(Realms.Realm r, Observed.Session s, Path dir, long maxBytes) {
        long external = s.externalBytes();
        if (s.byteLength() <= 0 || s.byteLength() > maxBytes) {
            return Optional.empty();
        }
        try {
            Path folder = Files.createTempDirectory(Files.createDirectories(dir), "model-");
            Optional<String> hex = move(r, "['model', " + s.id() + "]", s.byteLength(), folder.resolve("model.part"));
            if (hex.isEmpty()) {
                return Optional.empty();
            }
            // named by the hash of the bytes read, the observer's own copy of what onnxruntime-web was given: a page's
            // own hash of them (made with its WebCrypto, which it may replace) is not taken for it
            Path file = Files.move(folder.resolve("model.part"), folder.resolve(hex.get() + ".onnx"), StandardCopyOption.REPLACE_EXISTING);
            List<String> missing = new ArrayList<>();
            long kept = s.byteLength();
            for (int i = 0; i < s.external().size(); i++) {
                Observed.External e = s.external().get(i);
                String why = externalFile(r, s, i, e, folder, s.byteLength() + external <= maxBytes);
                if (why != null) {
                    missing.add(e.path() + " (" + why + ")");
                } else {
                    kept += e.byteLength();
                }
            }
            r.ask("o.handOver(" + s.id() + ")");
            return Optional.of(new PageObserver.KeptModel(file, hex.get(), kept, missing));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether an external file's path, as the page names it, is a plain relative one this keeper writes under. */
    static boolean plain(String path) {
        return path != null && path.length() <= 200 && PLAIN.matcher(path).matches();
    }

    /** Keeps external file {@code i} beside the model; null when kept, else why not. */
    private static String externalFile(Realms.Realm r, Observed.Session s, int i, Observed.External e, Path folder, boolean fits)
            throws IOException {
        if (!plain(e.path())) {
            return "not a plain relative path";
        }
        if (!e.kept() || e.byteLength() == null || !fits) {
            return e.byteLength() == null ? "the page handed no bytes" : Bytes.iec(e.byteLength()) + ", past the budget";
        }
        Path target = folder.resolve(e.path()).normalize();
        if (!target.startsWith(folder)) {
            return "not a plain relative path";
        }
        Files.createDirectories(target.getParent());
        Optional<String> hex = move(r, "['external', " + s.id() + ", " + i + "]", e.byteLength(), target);
        if (hex.isEmpty()) {
            Files.deleteIfExists(target);
            return "it did not come whole";
        }
        return null;
    }

    /** The tensors {@code where}'s sessions hold over the report's bound, written to {@code dir} while {@code maxBytes} has room. */
    static Map<Integer, Path> keepTensors(Realms.Realm r, Observed where, java.util.Set<Integer> kept, Path dir, long maxBytes) {
        Map<Integer, Path> out = new LinkedHashMap<>();
        long room = maxBytes;
        for (Observed.Session s : where.sessions()) {
            for (Observed.Run run : s.runs()) {
                for (Observed.Tensor t : java.util.stream.Stream.concat(run.inputs().stream(), run.outputs().stream()).toList()) {
                    if (t.held() == null || t.byteLength() == null || kept.contains(t.held()) || out.containsKey(t.held()) || t.byteLength() > room) {
                        continue;
                    }
                    try {
                        Path file = Files.createDirectories(dir).resolve("tensor-" + UUID.randomUUID() + ".bin");
                        if (move(r, "['tensor', " + t.held() + "]", t.byteLength(), file).isPresent()) {
                            out.put(t.held(), file);
                            room -= t.byteLength();
                            r.ask("o.releaseTensor(" + t.held() + ")");
                        }
                    } catch (IOException e) {
                        throw new UncheckedIOException(e);
                    }
                }
            }
        }
        return out;
    }

    /**
     * The bytes the realm holds under {@code ref}, whole at {@code size}, to {@code out}; the sha256 of what came. Where the
     * driver has the browser write them itself (a blob: URL downloaded), that file, read once here to hash it; else, or
     * when the download does not come whole, in parts through the driver's channel.
     */
    static Optional<String> move(Realms.Realm r, String ref, long size, Path out) throws IOException {
        Object url = r.downloads() ? r.ask("o.blobUrl(" + ref + ")") : null;
        if (url instanceof String u && u.startsWith("blob:") && u.length() < 300) {
            try {
                if (r.download(u, out) && Files.size(out) == size) {
                    return Optional.of(TreeManifest.sha256(out));
                }
            } finally {
                r.ask("o.revoke('" + u.replaceAll("[^A-Za-z0-9:/._-]", "") + "')");
            }
            Files.deleteIfExists(out);
        }
        return copy(r, "o.part(" + ref + ", ", size, out);
    }

    /** Copies {@code size} bytes asked for by {@code call + offset + ")"} into {@code out}; their sha256, or empty. */
    private static Optional<String> copy(Realms.Realm r, String call, long size, Path out) throws IOException {
        MessageDigest sha;
        try {
            sha = MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new AccelbridgeException("this JVM has no SHA-256", null);
        }
        long done = 0;
        try (OutputStream o = Files.newOutputStream(out)) {
            while (done < size) {
                Object b64 = r.ask(call + done + ")");
                if (!(b64 instanceof String text) || text.isEmpty() || text.length() > PART_CHARS) {
                    break;
                }
                byte[] bytes = Base64.getDecoder().decode(text);
                done += bytes.length;
                if (done > size) {
                    break;
                }
                sha.update(bytes);
                o.write(bytes);
            }
        } catch (IllegalArgumentException e) {
            done = -1; // not base64
        }
        if (done != size) {
            Files.deleteIfExists(out);
            return Optional.empty();
        }
        return Optional.of(HexFormat.of().formatHex(sha.digest()));
    }
}
