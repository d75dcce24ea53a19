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
 * What onnxruntime-web declares it runs, per backend ({@code webgpu}, {@code webnn}), read from ONNX Runtime's own
 * sources and kept as data with those sources ({@code ort-kernels.json}). A declaration, never a result: the op suite
 * measures what really runs, and the two disagree (docs/op-suite.md).
 */
@PublicApi
public final class OpKernels {
    private static final JsonNode DATA = load();

    private OpKernels() {
    }

    /** The ai.onnx op types onnxruntime-web declares for {@code backend} ({@code webgpu} or {@code webnn}); empty for others. */
    public static Set<String> declared(String backend) {
        Set<String> out = new TreeSet<>();
        DATA.path(backend).path("ops").forEach(n -> out.add(n.asText()));
        return out;
    }

    /** Where {@link #declared} was read from. */
    public static List<String> sources(String backend) {
        return java.util.stream.StreamSupport.stream(DATA.path(backend).path("sources").spliterator(), false).map(JsonNode::asText).toList();
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
