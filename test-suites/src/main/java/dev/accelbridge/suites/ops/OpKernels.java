package dev.accelbridge.suites.ops;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.accelbridge.core.PublicApi;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;

/**
 * What onnxruntime-web declares it runs, per backend ({@code webgpu}, {@code webnn}, {@code wasm}), read from ONNX
 * Runtime's own sources and kept as data with those sources ({@code ort-kernels.json}): the default domain's op types
 * where the backend's declaration lists them, and ONNX Runtime's contrib operators with their domain in front
 * ({@code com.microsoft.MatMulNBits}, as {@link dev.accelbridge.core.OpVariant#qualifiedType()} names them). A
 * declaration, never a result: the op suite measures what really runs, and the two disagree (docs/op-suite.md).
 */
@PublicApi
public final class OpKernels {
    private static final JsonNode DATA = load();

    private OpKernels() {
    }

    /**
     * The op types onnxruntime-web declares for {@code backend} ({@code webgpu}, {@code webnn}, {@code wasm}), contrib
     * ones qualified by their domain; empty for others.
     */
    public static Set<String> declared(String backend) {
        Set<String> out = new TreeSet<>();
        DATA.path(backend).path("ops").forEach(n -> out.add(n.asText()));
        DATA.path(backend).path("contrib").path("ops").forEach(n -> out.add(n.asText()));
        return out;
    }

    /**
     * Whether {@link #declared} speaks for {@code qualifiedOp}'s domain on {@code backend}: a backend whose default-domain
     * registrations are not held here (wasm runs ONNX Runtime's whole CPU provider) says nothing of a default-domain op
     * it does not list.
     */
    public static boolean covers(String backend, String qualifiedOp) {
        boolean contrib = qualifiedOp.contains(".");
        return contrib ? DATA.path(backend).has("contrib") : DATA.path(backend).has("ops") || declared(backend).contains(qualifiedOp);
    }

    /** Where {@link #declared} was read from. */
    public static List<String> sources(String backend) {
        List<String> out = new java.util.ArrayList<>();
        DATA.path(backend).path("sources").forEach(n -> out.add(n.asText()));
        DATA.path(backend).path("contrib").path("sources").forEach(n -> out.add(n.asText()));
        return out;
    }

    private static JsonNode load() {
        try (InputStream in = OpKernels.class.getResourceAsStream("ort-kernels.json")) {
            if (in == null) {
                throw new IllegalStateException("ort-kernels.json is missing from the test-suites jar");
            }
            return new ObjectMapper().readTree(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
