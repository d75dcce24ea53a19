package dev.accelbridge.reports.recommend;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Crossover;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.SpeedStanding;
import dev.accelbridge.core.WidthSweep;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * Where WebGPU pays off on a device: along the width sweep ({@link WidthSweep}), the width from which a browser lane's
 * WebGPU overtakes the same lane's wasm and the host's native CPU ({@link Crossover}), per host and browser lane (browser,
 * onnxruntime-web release and engine) and adapter. Only figures that stand as speeds count; a lane whose WebGPU figures do
 * not (a software adapter's) is said as not compared, with why.
 *
 * @param host       the host's fingerprint
 * @param lane       the browser lane
 * @param adapter    the WebGPU adapter, as the lane named it
 * @param overWasm   the crossing over the lane's wasm; empty where not measured on both or not compared
 * @param overNative the crossing over the host's native CPU; empty likewise
 * @param note       why it was not compared, or null
 */
@PublicApi
public record WebGpuPayoff(String host, LaneId lane, String adapter, Optional<Crossover> overWasm, Optional<Crossover> overNative,
                           String note) {
    /** The width unit of the sweep, in words. */
    public static final String UNIT = "width";

    /** Every browser lane's payoff found in {@code results} (the latest result per cell); empty where no lane ran the sweep on WebGPU. */
    public static List<WebGpuPayoff> of(List<RunResult> results) {
        // host -> lane -> backend -> width -> median, of figures that stand as speeds
        Map<String, Map<LaneId, Map<BackendId, TreeMap<Integer, Double>>>> series = new LinkedHashMap<>();
        Map<String, Map<LaneId, String>> adapters = new LinkedHashMap<>();
        Map<String, Map<LaneId, String>> notCompared = new LinkedHashMap<>();
        for (RunResult r : results) {
            var width = WidthSweep.width(r.id().model());
            BackendId b = r.actual().orElse(null);
            if (width.isEmpty() || b == null || r.timings().isEmpty() || r.hostFingerprint() == null) {
                continue;
            }
            LaneId lane = r.id().lane();
            if (b == BackendId.WEBGPU) {
                adapters.computeIfAbsent(r.hostFingerprint(), k -> new LinkedHashMap<>()).put(lane,
                        r.provenance() == null || r.provenance().adapter() == null ? "unnamed" : r.provenance().adapter());
            }
            SpeedStanding s = SpeedStanding.of(r);
            if (!s.counts()) {
                if (b == BackendId.WEBGPU) {
                    notCompared.computeIfAbsent(r.hostFingerprint(), k -> new LinkedHashMap<>()).putIfAbsent(lane, s.why());
                }
                continue;
            }
            series.computeIfAbsent(r.hostFingerprint(), k -> new LinkedHashMap<>()).computeIfAbsent(lane, k -> new LinkedHashMap<>())
                    .computeIfAbsent(b, k -> new TreeMap<>()).put(width.getAsInt(), r.timings().map(t -> t.p50Ms()).orElse(Double.NaN));
        }
        List<WebGpuPayoff> out = new ArrayList<>();
        adapters.forEach((host, lanes) -> lanes.forEach((lane, adapter) -> {
            Map<LaneId, Map<BackendId, TreeMap<Integer, Double>>> h = series.getOrDefault(host, Map.of());
            TreeMap<Integer, Double> gpu = h.getOrDefault(lane, Map.of()).get(BackendId.WEBGPU);
            if (gpu == null) {
                out.add(new WebGpuPayoff(host, lane, adapter, Optional.empty(), Optional.empty(),
                        "not compared (" + notCompared.getOrDefault(host, Map.of()).getOrDefault(lane, "no WebGPU figure stands as a speed") + ")"));
                return;
            }
            TreeMap<Integer, Double> wasm = h.getOrDefault(lane, Map.of()).get(BackendId.WASM);
            TreeMap<Integer, Double> cpu = h.entrySet().stream().filter(e -> e.getKey().side() == dev.accelbridge.core.LaneSide.NATIVE).map(e -> e.getValue().get(BackendId.CPU))
                    .filter(java.util.Objects::nonNull).findFirst().orElse(null);
            out.add(new WebGpuPayoff(host, lane, adapter, crossing(gpu, wasm), crossing(gpu, cpu), null));
        }));
        return out;
    }

    private static Optional<Crossover> crossing(TreeMap<Integer, Double> gpu, TreeMap<Integer, Double> other) {
        if (other == null) {
            return Optional.empty();
        }
        List<Crossover.Point> points = new ArrayList<>();
        gpu.forEach((w, ms) -> {
            Double o = other.get(w);
            if (o != null) {
                points.add(new Crossover.Point(w, ms, o));
            }
        });
        return Crossover.of(points);
    }

    /** The payoff in one line: "WebGPU over wasm: from width 512 (1.80× faster there); over native CPU: not within …". */
    public String describe() {
        if (note != null) {
            return note;
        }
        return "WebGPU over wasm: " + overWasm.map(c -> c.words(UNIT)).orElse("not measured on both")
                + "; over native CPU: " + overNative.map(c -> c.words(UNIT)).orElse("not measured on both");
    }
}
