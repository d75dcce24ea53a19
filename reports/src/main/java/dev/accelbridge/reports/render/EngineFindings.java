package dev.accelbridge.reports.render;

import dev.accelbridge.core.BackendException;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.VersionAxes;
import dev.accelbridge.core.VersionAxis;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * Cases whose verdict differs between onnxruntime-web's engines (JSEP and the native WebGPU EP), each a finding of its
 * own: "PASSED on jsep, WRONG_OUTPUT on webgpu-ep at node X". Every pair of engines in the matrix is compared, matched
 * on every other dimension (the same case in the same browser, release and host), so a defect that is one engine's alone
 * is told from one in both. Only verdicts on the model count ({@link #onTheModel}).
 */
final class EngineFindings {
    private EngineFindings() {
    }

    /** The section: one row per case and pair of engines whose statuses differ; left out when no case ran on two engines. */
    static Section of(Matrix m) {
        List<RunResult> results = m.cells().stream().map(Cell::result).toList();
        List<Section.Row> rows = new ArrayList<>();
        VersionAxis engineAxis = VersionAxes.named(OrtWebEngine.AXIS).orElse(null);
        if (engineAxis != null) {
            Comparison.By by = Comparison.By.axis(engineAxis);
            List<String> engines = results.stream().map(r -> by.dimension().text(r.id())).filter(Objects::nonNull).distinct().sorted().toList();
            for (int i = 0; i < engines.size(); i++) {
                for (int j = i + 1; j < engines.size(); j++) {
                    String a = engines.get(i);
                    String b = engines.get(j);
                    for (Comparison.Row r : Comparison.of(by, a, b, Sections.side(results, by, a), Sections.side(results, by, b)).rows()) {
                        if (r.a() != null && r.b() != null && r.a().status() != r.b().status() && onTheModel(r.a()) && onTheModel(r.b())) {
                            rows.add(Section.Row.of("warn", r.label(), r.a().status() + " on " + a, r.b().status() + " on " + b,
                                    where(wrongOf(r.a(), r.b()))));
                        }
                    }
                }
            }
        }
        return Section.table("engines", "Verdicts that differ between engines", rows.isEmpty() ? null
                        : "Each case run on two of onnxruntime-web's engines (JSEP, the native WebGPU EP) in the same browser, release "
                        + "and host, whose verdicts on the model differ (each ran, was unsupported, or failed loading or running it): "
                        + "a defect of one engine alone (docs/engines.md). An engine a release lacks (UNAVAILABLE) and a lane that "
                        + "failed to start are not verdicts, and are left out.",
                new Section.Table(List.of("case", "engine A", "engine B", "where the other went wrong"), rows), null);
    }

    /**
     * Whether {@code r}'s status is a verdict of its engine on the model: it ran, the model was unsupported, or it failed while
     * loading, running or moving its tensors. UNAVAILABLE (a release without that engine, a browser without the backend)
     * and a lane's own failure (no page joined, a browser that did not start) say nothing of the engine.
     */
    static boolean onTheModel(RunResult r) {
        if (r.status().executed() || r.status() == Status.UNSUPPORTED) {
            return true;
        }
        if (r.status() != Status.FAILED || r.reason() == null) {
            return false;
        }
        for (BackendException.Phase p : BackendException.Phase.values()) {
            if (p != BackendException.Phase.PROBE && r.reason().startsWith(p.stage() + ": ")) {
                return true;
            }
        }
        return false;
    }

    /** The one of two that went wrong: a wrong output first, then one that did not pass. */
    private static RunResult wrongOf(RunResult a, RunResult b) {
        if (b.status() == Status.WRONG_OUTPUT || a.status() == Status.PASSED) {
            return b;
        }
        return a;
    }

    /** The case that did not pass: its first bad node where it was bisected, else its reason. */
    private static String where(RunResult r) {
        if (r.analysis() != null && r.analysis().bisection() != null) {
            return r.analysis().bisection().describe();
        }
        return r.reason() == null ? "" : r.reason();
    }
}
