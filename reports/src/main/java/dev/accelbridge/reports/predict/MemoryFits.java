package dev.accelbridge.reports.predict;

import com.fasterxml.jackson.annotation.JsonInclude;
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

    /**
     * A memory fit's JSON form, {@code "kind": "prediction"} first.
     *
     * @param measuredSince the ledger measured since on the target itself ({@link MemoryFit#actual()}), absent when none
     */
    public record FitForm(String kind, String model, String verdict, long peakBytes, long largestBufferBytes, String reference,
                          String referenceCase, boolean measuredItself, GpuLedger measured, MemoryFit.Sizes target,
                          MemoryFit.Sizes from, MemoryFit.DeviceClass device, List<String> reasons,
                          @JsonInclude(JsonInclude.Include.NON_NULL) GpuLedger measuredSince) {
    }

    /** The fit as JSON ({@link FitForm}). */
    public static ObjectNode json(MemoryFit f) {
        return ResultJson.MAPPER.valueToTree(new FitForm("prediction", f.model(), f.verdict().name(), f.peakBytes(),
                f.largestBufferBytes(), f.reference(), f.referenceCase(), f.measuredItself(), f.measured(), f.target(), f.from(),
                f.device(), f.reasons(), f.actual()));
    }

    /** A lane's engine: the pinned one where the lane names none. */
    private static OrtWebEngine engine(LaneId lane) {
        return OrtWebEngine.orPinned(OrtWebEngine.of(lane));
    }

    private static Optional<RunResult> latestLedger(List<RunResult> results, CaseId c) {
        return results.stream().filter(r -> r.memory().gpu() != null && r.requested() == BackendId.WEBGPU && r.ranOn(BackendId.WEBGPU)
                        && !r.sharedFigures() && r.id().modelSha256().equals(c.modelSha256()) && r.id().inputShapes().equals(c.inputShapes())
                        && r.id().precision() == c.precision() && r.lane().browser() == c.lane().browser() && engine(r.lane()) == engine(c.lane()))
                .max(Comparator.comparing(RunResult::startedAt, Comparator.nullsFirst(Comparator.naturalOrder())));
    }
}
