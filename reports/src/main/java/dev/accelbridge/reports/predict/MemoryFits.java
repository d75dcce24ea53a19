package dev.accelbridge.reports.predict;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.GpuLedger;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.reports.store.ResultJson;

import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * Answers {@code accelbridge fit}: finds the measured GPU ledger a {@link MemoryFit} rests on in the store's results (the
 * target's own, else the reference model's, on the same inputs, browser and onnxruntime-web engine) and the limits of a recorded host's device,
 * and words or serialises the answer, always as a prediction.
 */
@PublicApi
public final class MemoryFits {
    private MemoryFits() {
    }

    /**
     * The fit of {@code target} (its case on WebGPU in its browser's lane) on {@code device}: from {@code from}'s latest
     * measured ledger when one is named (with the target's own beside it when the store has that too), else from the
     * target's own.
     *
     * @throws AccelbridgeException naming the ledger the store lacks
     */
    public static MemoryFit answer(List<RunResult> results, CaseId target, MemoryFit.Sizes targetSizes, CaseId from,
                                   MemoryFit.Sizes fromSizes, MemoryFit.DeviceClass device) {
        Optional<RunResult> own = latestLedger(results, target);
        if (own.isPresent() && from == null) {
            RunResult r = own.get();
            return MemoryFit.predict(target.model(), targetSizes, target.model(), r.id().key(), r.memory().gpu(), targetSizes, true, device);
        }
        if (from == null) {
            throw new AccelbridgeException("The store has no GPU ledger of " + target.model() + " on WebGPU (" + target.inputShapes()
                    + ") in " + target.lane().browser().id(), "run it on webgpu first, or name a measured smaller model of its family with --from");
        }
        RunResult r = latestLedger(results, from).orElseThrow(() -> new AccelbridgeException("The store has no GPU ledger of "
                + from.model() + " on WebGPU (" + from.inputShapes() + ") in " + from.lane().browser().id(),
                "run it first: accelbridge run --model " + from.model() + " --backends webgpu"));
        MemoryFit f = MemoryFit.predict(target.model(), targetSizes, from.model(), r.id().key(), r.memory().gpu(), fromSizes, false, device);
        // the store measured the target too: the prediction is said beside what it measured
        return own.map(o -> f.checkedAgainst(o.memory().gpu())).orElse(f);
    }

    /** The buffer limits the device of a recorded host's latest WebGPU ledger had ({@code host}: its name or fingerprint). */
    public static MemoryFit.DeviceClass recordedHost(List<RunResult> results, String host, long memoryBytes) {
        GpuLedger g = results.stream().filter(r -> r.memory().gpu() != null && r.provenance() != null
                        && (host.equals(r.hostFingerprint()) || host.equals(r.provenance().host())))
                .max(Comparator.comparing(RunResult::startedAt, Comparator.nullsFirst(Comparator.naturalOrder())))
                .map(r -> r.memory().gpu())
                .orElseThrow(() -> new AccelbridgeException("The store has no WebGPU ledger from host '" + host + "' to take its device's limits from",
                        "name a host that ran WebGPU cases, or give --max-buffer-size and --max-binding-size"));
        return new MemoryFit.DeviceClass("the device of host " + host, memoryBytes, g.maxBufferSize(), g.maxStorageBufferBindingSize());
    }

    /** The fit as JSON, {@code "kind": "prediction"}. */
    public static ObjectNode json(MemoryFit f) {
        ObjectNode o = ResultJson.MAPPER.createObjectNode();
        o.put("kind", "prediction");
        o.put("model", f.model());
        o.put("verdict", f.verdict().name());
        o.put("peakBytes", f.peakBytes());
        o.put("largestBufferBytes", f.largestBufferBytes());
        o.put("reference", f.reference());
        o.put("referenceCase", f.referenceCase());
        o.put("measuredItself", f.measuredItself());
        o.set("measured", ResultJson.MAPPER.valueToTree(f.measured()));
        o.set("target", ResultJson.MAPPER.valueToTree(f.target()));
        o.set("from", ResultJson.MAPPER.valueToTree(f.from()));
        o.set("device", ResultJson.MAPPER.valueToTree(f.device()));
        o.set("reasons", ResultJson.MAPPER.valueToTree(f.reasons()));
        if (f.actual() != null) {
            o.set("measuredSince", ResultJson.MAPPER.valueToTree(f.actual()));
        }
        return o;
    }

    /** A lane's engine: the pinned one where the lane names none. */
    private static OrtWebEngine engine(LaneId lane) {
        return OrtWebEngine.orPinned(OrtWebEngine.of(lane));
    }

    private static Optional<RunResult> latestLedger(List<RunResult> results, CaseId c) {
        return results.stream().filter(r -> r.memory().gpu() != null && r.requested() == BackendId.WEBGPU && r.actual() == BackendId.WEBGPU
                        && !r.sharedFigures() && r.id().modelSha256().equals(c.modelSha256()) && r.id().inputShapes().equals(c.inputShapes())
                        && r.id().precision() == c.precision() && r.lane().browser() == c.lane().browser() && engine(r.lane()) == engine(c.lane()))
                .max(Comparator.comparing(RunResult::startedAt, Comparator.nullsFirst(Comparator.naturalOrder())));
    }
}
