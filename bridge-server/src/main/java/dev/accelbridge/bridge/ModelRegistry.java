package dev.accelbridge.bridge;

import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.suites.ModelFiles;
import dev.accelbridge.suites.OnnxModels;
import dev.accelbridge.suites.SuiteException;
import org.slf4j.LoggerFactory;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The model files the bridge may serve: only those the current run registered, each under an opaque random id.
 * A request names an id, never a path, so no request can reach any other file.
 */
@PublicApi
public final class ModelRegistry {
    /** The models {@code server} serves this run: what a provider registers its cases' models in. */
    public static ModelRegistry of(BridgeServer server) {
        return server.models();
    }

    /** A registered model: its opaque id, file and size. */
    public record ModelRef(String id, Path path, String name, long size) {
        /** The URL path pages fetch it from (token added by the page when the bridge has one). */
        public String urlPath() {
            return "/models/" + id;
        }
    }

    /** The largest model sent in its load frame rather than fetched by the page ({@link #inline}). */
    public static final int INLINE_BYTES = 1 << 20;
    /** External-data locations per model file (parsing a model per case would cost a large one a second each time). */
    private static final Map<String, List<String>> EXTERNAL_DATA = new ConcurrentHashMap<>();

    private final Map<String, ModelRef> byId = new ConcurrentHashMap<>();

    /**
     * Registers a model file for serving.
     *
     * @throws BridgeServerException when the file is missing or unreadable
     */
    public ModelRef register(Path file) {
        Path p;
        try {
            p = file.toRealPath(); // the file itself, links followed: serving re-checks that it is still this file
        } catch (IOException e) {
            throw new BridgeServerException("Model file " + file + " does not exist or is not readable",
                    "check the model path of the case");
        }
        if (!Files.isRegularFile(p) || !Files.isReadable(p)) {
            throw new BridgeServerException("Model file " + p + " does not exist or is not readable",
                    "check the model path of the case");
        }
        long size;
        try {
            size = Files.size(p);
        } catch (IOException e) {
            throw new BridgeServerException("Cannot read the size of " + p + ": " + e.getMessage(), "check the file", e);
        }
        ModelRef ref = new ModelRef(UUID.randomUUID().toString().replace("-", ""), p, p.getFileName().toString(), size);
        byId.put(ref.id(), ref);
        return ref;
    }

    /**
     * Registers the external-data files {@code model} references, by the location the model names them with: each must
     * resolve inside the model's folder (the loader's rule again, real paths and links followed), else it is not served
     * and the page's session creation names it as missing.
     */
    public Map<String, ModelRef> registerExternalData(ModelSpec model) {
        Map<String, ModelRef> out = new LinkedHashMap<>();
        for (String loc : EXTERNAL_DATA.computeIfAbsent(model.path().toAbsolutePath() + "@" + model.sha256(),
                k -> OnnxModels.externalData(model.path()))) {
            try {
                out.put(loc, register(ModelFiles.inside(model.path().toAbsolutePath().getParent(), loc, "external data")));
            } catch (SuiteException e) {
                LoggerFactory.getLogger(ModelRegistry.class).warn("Not serving {}: {}", loc, e.oneLine());
            }
        }
        return out;
    }

    /** Stops serving a model. */
    public void unregister(ModelRef ref) {
        byId.remove(ref.id());
    }

    /**
     * The model with this id, if registered and still the file that was registered: a path swapped for a link since
     * (to {@code /etc/passwd}, say) is not served.
     */
    public Optional<ModelRef> find(String id) {
        ModelRef ref = id == null ? null : byId.get(id);
        if (ref == null) {
            return Optional.empty();
        }
        try {
            return ref.path().toRealPath().equals(ref.path()) && Files.isRegularFile(ref.path(), LinkOption.NOFOLLOW_LINKS)
                    ? Optional.of(ref) : Optional.empty();
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * The bytes of a small registered model ({@link #INLINE_BYTES} at most, no external data), read now from the file that
     * was registered (the same checks as serving it): sent in the load frame itself, they spare the page an HTTP round
     * trip that costs more than the session of a one-op model. Empty for a larger model, one with external data, or a
     * file that is no longer the one registered (the page then fetches it and gets the server's refusal).
     */
    public Optional<byte[]> inline(ModelRef ref, boolean hasExternalData) {
        if (hasExternalData || ref.size() > INLINE_BYTES || find(ref.id()).isEmpty()) {
            return Optional.empty();
        }
        try (InputStream in = Files.newInputStream(ref.path(), LinkOption.NOFOLLOW_LINKS)) {
            byte[] b = in.readNBytes(INLINE_BYTES + 1);
            return b.length > INLINE_BYTES ? Optional.empty() : Optional.of(b);
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /** How many models are being served. */
    public int size() {
        return byId.size();
    }
}
