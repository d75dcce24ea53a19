package dev.accelbridge.bridge.run;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BrowserSpec;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.PublicApi;

import java.util.ArrayList;
import java.util.List;

/**
 * The runtime releases a run sweeps, each a dimension of the matrix: onnxruntime-web in every browser
 * ({@code --ort-web}), ONNX Runtime natively ({@code --ort}). Empty: the pinned one only (the page's onnxruntime-web, the
 * ONNX Runtime this process loaded).
 *
 * @param ortWeb onnxruntime-web versions, each fetched from the npm registry at first use
 * @param ort    ONNX Runtime versions, each but this process's own run in a runner process of its own
 */
@PublicApi
public record Runtimes(List<String> ortWeb, List<String> ort) {
    /** The pinned runtimes only. */
    public static final Runtimes PINNED = new Runtimes(List.of(), List.of());

    /** @throws AccelbridgeException naming a value that is not a version */
    public Runtimes {
        ortWeb = ortWeb == null ? List.of() : ortWeb.stream().map(String::trim).distinct().toList();
        ort = ort == null ? List.of() : ort.stream().map(String::trim).distinct().toList();
        ortWeb.forEach(v -> new LaneId(dev.accelbridge.core.BrowserKind.CHROMIUM, null, v)); // the lane's own check of a version
        ort.forEach(LaneId::nativeAt);
    }

    /**
     * The browser lanes of {@code browsers}: each browser with each onnxruntime-web version, {@code pinnedOrtWeb} when none
     * is asked for.
     */
    public List<LaneId> browserLanes(List<BrowserSpec> browsers, String pinnedOrtWeb) {
        List<LaneId> out = new ArrayList<>();
        for (BrowserSpec b : browsers) {
            for (String v : ortWeb.isEmpty() ? List.of(pinnedOrtWeb) : ortWeb) {
                out.add(b.lane(v));
            }
        }
        return out;
    }

    /** The native lanes: each ONNX Runtime version, {@code inProcess} (this process's own) when none is asked for. */
    public List<LaneId> nativeLanes(String inProcess) {
        return (ort.isEmpty() ? java.util.Collections.singletonList(inProcess) : ort).stream().map(LaneId::nativeAt).toList();
    }
}
