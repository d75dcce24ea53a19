package dev.accelbridge.reports.render;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Interval;
import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.SampleStats;
import dev.accelbridge.core.SpeedStanding;
import dev.accelbridge.core.Timings;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Each browser WebGPU cell beside its native twin: the same case (host, model, inputs, precision, batch) on ONNX
 * Runtime's native WebGPU EP ({@code native-webgpu}), the EP onnxruntime-web's native-EP engine compiles to
 * WebAssembly. Their ratio is what the browser adds over the same kernels natively. Left out of a report that has no such
 * pair.
 */
final class WebGpuTwinSection {
    private WebGpuTwinSection() {
    }

    static Section of(Matrix m) {
        Map<String, RunResult> twins = new HashMap<>();
        for (Cell c : m.cells()) {
            RunResult r = c.result();
            if (r.status().executed() && r.actual().orElse(null) == BackendId.NATIVE_WEBGPU && r.timings().isPresent()) {
                twins.merge(key(r), r, (a, b) -> b.startedAt() != null && a.startedAt() != null && b.startedAt().isAfter(a.startedAt()) ? b : a);
            }
        }
        List<Section.Row> rows = new ArrayList<>();
        for (Cell c : m.cells()) {
            RunResult r = c.result();
            RunResult twin = twins.get(key(r));
            // both ran, each timed: read by their kind
            if (twin == null || !r.status().executed() || !(r.outcome() instanceof Outcome.Ran ran) || ran.backend() != BackendId.WEBGPU
                    || !(twin.outcome() instanceof Outcome.Ran twinRan)) {
                continue;
            }
            Timings b = ran.timings();
            Timings n = twinRan.timings();
            rows.add(Section.Row.of(null, c.host(), c.row(), c.ranOn() + Fmt.trust(r.timings()), Fmt.msCi(b.p50Ms(), b.quality().p50Ci()),
                    Fmt.msCi(n.p50Ms(), n.quality().p50Ci()), ratio(r, twin), adapter(r) + " / " + adapter(twin)));
        }
        return Section.table("webgpu-vs-native-webgpu", "Browser WebGPU vs native WebGPU (p50 [95 % interval])", rows.isEmpty() ? null
                        : "The native twin runs ONNX Runtime's WebGPU EP outside the browser on the same model and inputs: the ratio "
                        + "is the browser's time over the native EP's (above 1: the browser's own cost). Both sides' adapters are "
                        + "given; a figure that does not stand as a speed (a software adapter's, an unverified device's) is not "
                        + "compared.",
                new Section.Table(List.of("host", "model", "browser", "browser p50 ms", "native WebGPU p50 ms", "browser / native",
                        "adapters (browser / native)"), rows), null);
    }

    /** The browser's p50 over the native EP's, with its interval; where either figure does not stand as a speed, why. */
    static String ratio(RunResult browser, RunResult twin) {
        for (RunResult r : List.of(browser, twin)) {
            SpeedStanding s = SpeedStanding.of(r);
            if (!s.counts()) {
                return "not compared (" + (r == browser ? "browser" : "native") + ": " + s.why() + ")";
            }
        }
        if (!(browser.outcome() instanceof Outcome.Ran rb) || !(twin.outcome() instanceof Outcome.Ran rn)) {
            return "not compared (not both timed)";
        }
        Timings b = rb.timings();
        Timings n = rn.timings();
        double ratio = b.p50Ms() / n.p50Ms();
        if (!Double.isFinite(ratio) || ratio <= 0) {
            return "–";
        }
        Interval ci = SampleStats.ratioCi(n.samplesMs(), b.samplesMs());
        return String.format(Locale.ROOT, "%.2f×", ratio) + (ci == null ? "" : " " + Fmt.interval(ci));
    }

    /** The pairing key: the same host and the same case apart from its lane and backend. */
    private static String key(RunResult r) {
        return r.hostFingerprint() + "|" + r.id().inputKey();
    }

    private static String adapter(RunResult r) {
        return r.provenance() == null || r.provenance().adapter() == null ? "unnamed" : r.provenance().adapter();
    }
}
