package dev.accelbridge.run;

import dev.accelbridge.browser.launch.DriverKind;
import dev.accelbridge.browser.launch.WebGpuAdapter;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.SamplingDepth;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The backends each browser lane of a run runs on this host: the plan's ({@link Targets#backendsOn}), less WebGPU where
 * it would only repeat another lane. Where this host's browsers get the software adapter (no GPU here, or
 * {@code --webgpu-adapter software}), every Blink build (Chromium, the headless shell, Chrome, Edge) runs the same Dawn on
 * the same SwiftShader on the same CPU: under {@code --sampling auto} (or {@code verdict}) WebGPU runs in the first Blink
 * build of each onnxruntime-web release and engine, and the others leave it out, said in the run's header. A Gecko or
 * WebKit lane is a browser engine of its own and keeps it; {@code --sampling full}, a host with a GPU and browsers
 * elsewhere (a Grid, a Playwright server, a page opened by hand) keep every lane whole.
 */
final class LaneBackends {
    private final Targets targets;
    /** The lanes that leave WebGPU out, each as its {@link #repeatKey}, with the Blink build it repeats. */
    private final Map<LaneId, BrowserKind> repeated;

    private LaneBackends(Targets targets, Map<LaneId, BrowserKind> repeated) {
        this.targets = targets;
        this.repeated = repeated;
    }

    /** The lanes of {@code plan} on a host that has ({@code hostHasGpu}) a GPU or not. */
    static LaneBackends of(RunPlan plan, boolean hostHasGpu) {
        return of(plan.targets(), plan.sampling().depth(), hostHasGpu);
    }

    /** As {@link #of(RunPlan, boolean)}, from the parts of a plan the rule reads. */
    static LaneBackends of(Targets targets, SamplingDepth depth, boolean hostHasGpu) {
        boolean launchedHere = targets.grid().isEmpty() && targets.remote().connect().isEmpty()
                && targets.driver() != DriverKind.GRID && targets.driver() != DriverKind.MANUAL;
        boolean software = targets.webGpuAdapter().on(hostHasGpu) == WebGpuAdapter.SOFTWARE;
        Map<LaneId, BrowserKind> repeated = new LinkedHashMap<>();
        if (launchedHere && software && (depth == null ? SamplingDepth.AUTO : depth) != SamplingDepth.FULL) {
            Map<Map<String, String>, BrowserKind> first = new LinkedHashMap<>();
            for (LaneId lane : targets.browserLanes()) {
                if (!lane.browser().chromium() || !targets.backendsOn(lane).contains(BackendId.WEBGPU)) {
                    continue;
                }
                Map<String, String> outside = lane.outsideBrowser();
                BrowserKind kept = first.putIfAbsent(outside, lane.browser());
                if (kept != null && kept != lane.browser()) {
                    repeated.put(repeatKey(lane), kept);
                }
            }
        }
        return new LaneBackends(targets, repeated);
    }

    /** The backends {@code lane} runs (a planned lane or the one it turned out to be, with its browser's version). */
    List<BackendId> on(LaneId lane) {
        List<BackendId> planned = targets.backendsOn(lane);
        if (lane.browser() == null || !repeated.containsKey(repeatKey(lane))) {
            return planned;
        }
        return planned.stream().filter(b -> b != BackendId.WEBGPU).toList();
    }

    /** A lane as its browser and its versions outside the browser: what a repeat is known by, whatever its browser's version. */
    private static LaneId repeatKey(LaneId lane) {
        return new LaneId(lane.browser(), lane.outsideBrowser());
    }

    /** The planned browser lanes that still run a backend. */
    List<LaneId> browserLanes() {
        return targets.browserLanes().stream().filter(l -> !on(l).isEmpty()).toList();
    }

    /** What was left out and why, one sentence per browser, for the run's header; empty when nothing was. */
    List<String> leftOut() {
        Map<BrowserKind, List<String>> lanesOf = new LinkedHashMap<>();
        Map<BrowserKind, BrowserKind> keptIn = new LinkedHashMap<>();
        repeated.forEach((key, kept) -> {
            lanesOf.computeIfAbsent(key.browser(), k -> new ArrayList<>()).add(key.key());
            keptIn.putIfAbsent(key.browser(), kept);
        });
        List<String> out = new ArrayList<>();
        lanesOf.forEach((browser, lanes) -> out.add("left out: WebGPU on " + String.join(", ", lanes)
                + ": this host's browsers get the software adapter (SwiftShader), on which it repeats " + keptIn.get(browser).id()
                + "'s (the same Dawn on the same CPU); --sampling full runs it"));
        return out;
    }
}
