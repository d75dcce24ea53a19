package dev.accelbridge.nativerunner;

import ai.djl.ndarray.NDManager;
import ai.onnxruntime.OnnxTensor;
import ai.onnxruntime.OrtException;
import ai.onnxruntime.OrtSession;
import com.google.gson.JsonElement;
import com.google.gson.JsonObject;
import com.google.gson.JsonParser;
import dev.accelbridge.core.BackendException.Phase;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.ExecutionFailedException;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.OpProfile;
import dev.accelbridge.core.Recreate;
import dev.accelbridge.core.Timings;

import java.io.IOException;
import java.io.Reader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The native side of a case's drill-down, each part on a session of its own after the timed one: ONNX Runtime's
 * profiler over separate iterations (per-op times, placement, copies) and the re-creation leak check (create, run once,
 * close, read RSS; N times).
 */
final class NativeAnalysis {
    private final ModelLoader loader;
    private final BackendId backend;
    private final ModelSpec spec;
    private final Integer threads;
    private final Map<String, Long> freeDims;
    private final List<NamedTensor> inputs;

    NativeAnalysis(ModelLoader loader, BackendId backend, ModelSpec spec, Integer threads, Map<String, Long> freeDims,
                   List<NamedTensor> orderedInputs) {
        this.loader = loader;
        this.backend = backend;
        this.spec = spec;
        this.threads = threads;
        this.freeDims = freeDims;
        this.inputs = orderedInputs;
    }

    /** One untimed run, then {@code iterations} profiled runs; their trace as an op profile. */
    OpProfile profile(int iterations) {
        Path dir;
        try {
            dir = Files.createTempDirectory("accelbridge-profile");
        } catch (IOException e) {
            throw new ExecutionFailedException(Phase.RUN, "Cannot make a folder for ONNX Runtime's profile: " + e.getMessage(),
                    "check the temp folder (java.io.tmpdir)", e);
        }
        double[] samples = new double[iterations];
        String file;
        try (ModelLoader.Loaded loaded = loader.load(backend, spec, threads, freeDims, dir.resolve("ort").toString());
             NDManager manager = loaded.model().getNDManager().newSubManager()) {
            OrtSession session = OrtSessions.of(loaded.model().getBlock());
            Map<String, OnnxTensor> feeds = feeds(loaded, manager);
            if (session == null || feeds == null) {
                throw new ExecutionFailedException(Phase.RUN, "DJL does not expose ONNX Runtime's session here: no profile",
                        "use a DJL version whose OrtSymbolBlock keeps its session", null);
            }
            session.run(feeds).close();
            for (int i = 0; i < iterations; i++) {
                long a = System.nanoTime();
                OrtSession.Result r = session.run(feeds);
                samples[i] = (System.nanoTime() - a) / 1e6;
                r.close();
            }
            file = session.endProfiling();
        } catch (OrtException e) {
            throw new ExecutionFailedException(Phase.RUN, "Profiling " + spec.name() + " on " + backend + " failed: "
                    + DjlOnnxRuntimeProvider.rootMessage(e), null, e);
        }
        try {
            // the trace covers the untimed first run too: its allocation is not steady-state op time
            Trace trace = trace(Path.of(file));
            List<OpProfile.NodeEvent> events = OpProfile.afterFirstRun(trace.nodes(), trace.firstRunEndUs());
            Arrays.sort(samples);
            return OpProfile.of("ONNX Runtime profiler", iterations, events, OrtProviders.ortProviderName(backend),
                    Timings.percentile(samples, 50), null);
        } finally {
            deleteQuietly(Path.of(file));
            deleteQuietly(dir);
        }
    }

    /** Creates, runs once and closes a session {@code cycles} times, reading the process RSS after each close. */
    Recreate recreate(int cycles) {
        List<Recreate.Cycle> out = new ArrayList<>();
        for (int i = 1; i <= cycles; i++) {
            long t0 = System.nanoTime();
            double createMs;
            double runMs;
            try (ModelLoader.Loaded loaded = loader.load(backend, spec, threads, freeDims);
                 NDManager manager = loaded.model().getNDManager().newSubManager()) {
                createMs = (System.nanoTime() - t0) / 1e6;
                OrtSession session = OrtSessions.of(loaded.model().getBlock());
                Map<String, OnnxTensor> feeds = feeds(loaded, manager);
                long a = System.nanoTime();
                if (session != null && feeds != null) {
                    session.run(feeds).close();
                } else {
                    loaded.model().getBlock().forward(new ai.djl.training.ParameterStore(manager, false), Tensors.toNd(manager, inputs), false).close();
                }
                runMs = (System.nanoTime() - a) / 1e6;
            } catch (OrtException e) {
                throw new ExecutionFailedException(Phase.RUN, "Re-creation cycle " + i + " of " + spec.name() + " on " + backend
                        + " failed: " + DjlOnnxRuntimeProvider.rootMessage(e), null, e);
            }
            out.add(new Recreate.Cycle(i, createMs, runMs, ProcessMemory.rss(), -1));
        }
        return Recreate.of(cycles, out, "after each close: this process's RSS (ONNX Runtime runs in the JVM's process)");
    }

    private Map<String, OnnxTensor> feeds(ModelLoader.Loaded loaded, NDManager manager) {
        List<String> names = loaded.model().describeInput() == null ? List.of() : loaded.model().describeInput().keys();
        return OrtSessions.feeds(names, Tensors.toNd(manager, inputs));
    }

    /**
     * An ONNX Runtime profile trace: its {@code Node} events, one per node per run, and when the first run
     * ({@code model_run}) ended (NaN when the trace has none).
     */
    record Trace(List<OpProfile.NodeEvent> nodes, double firstRunEndUs) {
    }

    /** Reads a profile trace (chrome trace JSON). */
    static Trace trace(Path trace) {
        List<OpProfile.NodeEvent> events = new ArrayList<>();
        double firstRunStart = Double.POSITIVE_INFINITY;
        double firstRunEnd = Double.NaN;
        try (Reader r = Files.newBufferedReader(trace)) {
            for (JsonElement e : JsonParser.parseReader(r).getAsJsonArray()) {
                JsonObject o = e.getAsJsonObject();
                String name = o.has("name") ? o.get("name").getAsString() : "";
                if ("model_run".equals(name) && o.has("ts") && o.get("ts").getAsDouble() < firstRunStart) {
                    firstRunStart = o.get("ts").getAsDouble();
                    firstRunEnd = firstRunStart + o.get("dur").getAsDouble();
                }
                if (!"Node".equals(o.has("cat") ? o.get("cat").getAsString() : null) || !name.endsWith("_kernel_time")) {
                    continue;
                }
                JsonObject args = o.has("args") ? o.getAsJsonObject("args") : new JsonObject();
                events.add(new OpProfile.NodeEvent(name.substring(0, name.length() - "_kernel_time".length()),
                        args.has("op_name") ? args.get("op_name").getAsString() : "?",
                        args.has("provider") ? args.get("provider").getAsString() : null,
                        o.get("dur").getAsDouble() / 1000, o.has("ts") ? o.get("ts").getAsDouble() : Double.NaN));
            }
        } catch (IOException | RuntimeException e) {
            throw new ExecutionFailedException(Phase.RUN, "ONNX Runtime's profile " + trace + " could not be read: " + e.getMessage(),
                    null, e);
        }
        return new Trace(events, firstRunEnd);
    }

    private static void deleteQuietly(Path p) {
        try {
            Files.deleteIfExists(p);
        } catch (IOException e) {
            // a leftover temp file is not this case's failure
        }
    }
}
