package dev.accelbridge.bridge.hub;

import dev.accelbridge.bridge.protocol.Loaded;
import dev.accelbridge.core.Placement;
import dev.accelbridge.core.PublicApi;

import java.util.List;

/**
 * A page's placement check as it answered it, with the load ({@code loaded.placement}) or, where the load left it for the
 * session's release, with the release ({@code released.placement}): whether onnxruntime-web made the session with CPU
 * fallback disabled, the page's account of that (its refusal word for word), and where a refused session's nodes went.
 *
 * @param onRequested whether onnxruntime-web made the session with CPU fallback disabled
 * @param basis       the page's account of the check
 * @param placedOn    where a refused session's nodes went, from ONNX Runtime's "Node placements" log; null when not read
 */
@PublicApi
public record PlacementCheck(boolean onRequested, String basis, NodePlacement placedOn) {
    /** The page's answer, or null when it checked nothing (no placement, or no verdict in it). */
    static PlacementCheck of(Loaded.Placement p) {
        return p == null || p.onRequested() == null ? null
                : new PlacementCheck(p.onRequested(), p.basis() == null ? "" : p.basis(), NodePlacement.of(p.nodes()));
    }

    /** Where the nodes of a session made for {@code ep} ran, by this check. */
    public Placement placement(ExecutionProviderSpec ep) {
        String requested = ep.ortProviderName();
        if (onRequested) {
            return Placement.onRequested(requested, basis);
        }
        // refused: which nodes ran on the CPU, where ORT's log named them; else that some did, nodes unknown
        return placedOn == null ? Placement.onCpu(requested, List.of(), basis + " (which nodes: unknown)")
                : Placement.onCpu(requested, placedOn.nodesOn(Placement.CPU_EP), placedOn.describe() + "; " + basis);
    }
}
