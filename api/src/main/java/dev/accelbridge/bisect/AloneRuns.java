package dev.accelbridge.bisect;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.DType;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Tolerance;
import dev.accelbridge.suites.FeedOptions;
import dev.accelbridge.suites.ModelDirectory;
import dev.accelbridge.suites.onnx.proto.Onnx.ModelProto;
import dev.accelbridge.suites.surgery.NodeRepro;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Comparator;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;
import java.util.stream.Stream;

/**
 * Runs one node of a model alone on the backend, fed the reference's values of its inputs, and judges its outputs
 * against the reference's. What bisection falls back to where exposing values changed the graph under test (a tapped
 * model that fails on the backend), and how it tells a value grown from one-step rounding from a node's own divergence.
 */
final class AloneRuns {
    /** The most nodes one bisection runs alone (each is a session of its own on the backend). */
    static final int MAX_NODES = 400;

    /**
     * What one node alone did.
     *
     * @param parity   its outputs against the reference's, or null when it could not run or its outputs could not be compared
     * @param failure  why it could not run (the runtime's words), or null
     * @param mismatch how its outputs differ in shape or type from the reference's (a divergence of its own), or null
     */
    record Verdict(Parity parity, String failure, String mismatch) {
        boolean diverges() {
            return mismatch != null || (parity != null && !parity.within());
        }

        /** The largest absolute error at its outputs: infinite for a shape or type that differs. */
        double maxAbsErr() {
            return mismatch != null ? Double.POSITIVE_INFINITY : parity.maxAbsErr();
        }
    }

    private final Path workDir;
    private final Duration timeout;
    private final Integer threads;
    private final BackendId backend;
    private final BackendProvider provider;
    private final Function<DType, Tolerance> tolerance;
    private final ModelCase mc;

    AloneRuns(Path workDir, Duration timeout, Integer threads, BackendId backend, BackendProvider provider,
              Function<DType, Tolerance> tolerance, ModelCase mc) {
        this.workDir = workDir;
        this.timeout = timeout;
        this.threads = threads;
        this.backend = backend;
        this.provider = provider;
        this.tolerance = tolerance;
        this.mc = mc;
    }

    /** Node {@code index} of {@code m} alone, fed {@code ref}'s values (every value the reference computed, by name). */
    Verdict run(ModelProto m, int index, Map<String, NamedTensor> ref) {
        return run(() -> NodeRepro.cut(m, index, ref));
    }

    /**
     * Nodes {@code nodes} of {@code m} together as one model, fed {@code ref}'s values of what they read that other nodes
     * computed, their outputs judged against the reference's: what many nodes show at once, where running each alone
     * would pass the bound.
     */
    Verdict together(ModelProto m, java.util.Collection<Integer> nodes, Map<String, NamedTensor> ref) {
        return run(() -> NodeRepro.cutTogether(m, nodes, ref, nodes.size() + " nodes of a model run together by bisection"));
    }

    private Verdict run(java.util.function.Supplier<NodeRepro.Cut> cutting) {
        Path dir = null;
        try {
            NodeRepro.Cut cut = cutting.get();
            Files.createDirectories(workDir);
            dir = Files.createTempDirectory(workDir, "alone-");
            cut.write(dir, Double.isNaN(mc.model().tolerance()) ? null : mc.model().tolerance(), "a node run alone by bisection\n");
            ModelCase one = ModelDirectory.loadAll(dir, Optional.of(mc.model().family()), FeedOptions.none()).get(0).cases().get(0);
            Execution e = provider.execute(ExecutionRequest.forOutputs(backend, one, timeout, threads));
            try {
                return new Verdict(Parity.compare(one.expected().orElseThrow(), e.outputs(), tolerance, "native-cpu"), null, null);
            } catch (RuntimeException mismatch) {
                return new Verdict(null, null, Tapped.oneLine(mismatch)); // a shape or a type that differs
            }
        } catch (IOException | RuntimeException e) {
            return new Verdict(null, e instanceof RuntimeException r ? Tapped.oneLine(r) : e.getMessage(), null);
        } finally {
            delete(dir);
        }
    }

    private static void delete(Path dir) {
        if (dir == null) {
            return;
        }
        try (Stream<Path> s = Files.walk(dir)) {
            s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
        } catch (IOException e) {
            // a leftover in the work folder is harmless
        }
    }
}
