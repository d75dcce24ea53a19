package dev.accelbridge.reports.render;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.DevicePeak;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelCost;
import dev.accelbridge.core.RoofPlace;
import dev.accelbridge.core.RunResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Each timed case under its device's roof ({@link RoofPlace}): FLOP/s achieved and weights read a second beside the
 * device's peak (a GPU's vendor figure by its adapter's name, a CPU's reckoned from its cores, clock and vector width, for
 * native CPU and wasm alike). Left out of a report where no model's cost is known (models Accelbridge did not author have
 * no FLOPs here).
 */
final class RoofSection {
    private RoofSection() {
    }

    static Section of(Matrix m) {
        List<Section.Row> rows = new ArrayList<>();
        for (Cell c : m.cells()) {
            RunResult r = c.result();
            String sha = r.id().modelSha256();
            ModelCost cost = sha == null ? ModelCost.UNKNOWN : m.modelCosts().getOrDefault(sha, ModelCost.UNKNOWN);
            Optional<RoofPlace> place = RoofPlace.of(r, cost, peak(r, m.hosts().get(r.hostFingerprint())));
            if (place.isEmpty()) {
                continue;
            }
            RoofPlace p = place.get();
            rows.add(Section.Row.of(null, c.host(), c.row(), c.ranOn(), p.tokensPerSecond().isPresent()
                            ? String.format(Locale.ROOT, "%.1f tokens/s", p.tokensPerSecond().getAsDouble()) : Fmt.ms(c.p50()) + " ms",
                    giga(p.flopsPerSecond(), "GFLOP/s"), giga(p.weightBytesPerSecond(), "GB/s"), roof(p.peak()), p.words(),
                    p.peak().map(DevicePeak::basis).orElse(RowFigures.ABSENT)));
        }
        return Section.table("roof", "Under the device's roof", rows.isEmpty() ? null
                        : "What each timed case achieved against its device's peak: FLOP/s (the model's FLOPs a item, or a token, "
                        + "as Accelbridge counted them when it authored the model: matrix products and convolutions) and the bytes "
                        + "of weights read a second (each pass, or token, reads every weight once). A GPU's peak is its vendor's "
                        + "figure; a CPU's is reckoned from its cores, reported clock and vector width, so a CPU that boosts above its "
                        + "reported clock can pass it. A software adapter and a figure that does not stand as a speed are not placed.",
                new Section.Table(List.of("host", "model", "ran on", "time", "achieved", "weights read", "roof", "place", "roof's basis"), rows),
                null);
    }

    /** The roof of the device {@code r} ran on: its host's CPU for native CPU and wasm, a GPU's by its adapter's name. */
    static Optional<DevicePeak> peak(RunResult r, HostInfo host) {
        BackendId b = r.actual().orElse(null);
        if (b == BackendId.CPU || b == BackendId.WASM) {
            return host == null ? Optional.empty() : DevicePeak.ofCpu(host);
        }
        if (b == BackendId.WEBGPU || b == BackendId.NATIVE_WEBGPU || b == BackendId.CUDA || b == BackendId.ROCM) {
            return DevicePeak.ofGpu(r.provenance() == null ? null : r.provenance().adapter());
        }
        return Optional.empty();
    }

    private static String giga(OptionalDouble v, String unit) {
        return v.isPresent() ? String.format(Locale.ROOT, "%.1f %s", v.getAsDouble() / 1e9, unit) : RowFigures.ABSENT;
    }

    private static String roof(Optional<DevicePeak> p) {
        if (p.isEmpty()) {
            return RowFigures.ABSENT;
        }
        DevicePeak d = p.get();
        return String.format(Locale.ROOT, "%.1f GFLOP/s", d.flopsPerSecond() / 1e9)
                + (d.bytesPerSecond().isPresent() ? String.format(Locale.ROOT, ", %.0f GB/s", d.bytesPerSecond().getAsDouble() / 1e9) : "");
    }
}
