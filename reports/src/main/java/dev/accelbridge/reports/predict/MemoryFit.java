package dev.accelbridge.reports.predict;

import dev.accelbridge.core.Bytes;
import dev.accelbridge.core.GpuLedger;
import dev.accelbridge.core.PublicApi;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Will a model fit a device class on WebGPU? A PREDICTION from a measured GPU ledger, never a measurement, and never
 * stored as a result. From the same model's ledger the peak is what was measured. From another model's (the same family,
 * smaller) everything the engine held scales by the weights: the peak by the target's weight bytes over the reference's
 * (an engine's buckets round weights up in proportion, and a family's activations grow with its width); the largest
 * buffer as the reference's did against its largest tensor of known size (a weight rounded up to the engine's bucket:
 * the target's largest tensor rounded alike; an activation larger than any known tensor: scaled by the weights too).
 * Sequence length is not modelled: a case whose activations grow faster than its weights is under-predicted, which is
 * why the target's own ledger, when the store has it, is printed beside the prediction. Held against the device's
 * memory and buffer limits, each with its evidence; what the device class does not say leaves its check unknown.
 *
 * @param model           the target model
 * @param reference       the model whose ledger the fit rests on (the target itself when measured)
 * @param referenceCase   the case key of the measured result
 * @param measured        its ledger
 * @param target          the target's sizes
 * @param from            the reference's sizes
 * @param peakBytes       the predicted peak of live GPU bytes
 * @param largestBufferBytes the predicted largest single buffer
 * @param device          the device class held against
 * @param verdict         what the checks say together
 * @param reasons         each check, in words, with its numbers
 * @param actual          the target's own measured ledger when the fit rests on another model's and the store has it
 *                        too (the prediction's check), else null
 */
@PublicApi
public record MemoryFit(String model, String reference, String referenceCase, GpuLedger measured, Sizes target, Sizes from,
                        long peakBytes, long largestBufferBytes, DeviceClass device, Verdict verdict, List<String> reasons,
                        GpuLedger actual) {
    /** What the checks say together. */
    public enum Verdict {
        /** Every check the device class allows passed. */
        FITS,
        /** A check failed: the reasons say which. */
        DOES_NOT_FIT,
        /** No failed check, but the device class says too little to pass one (no memory, no limits). */
        UNKNOWN
    }

    /** A model's sizes, from its file: its weights, and its largest tensor of known size (a weight, an input or output). */
    public record Sizes(long weightBytes, long largestTensorBytes) {
    }

    /**
     * A device class: the GPU memory a page may use and the adapter's buffer limits; -1 where not given.
     *
     * @param name  how the user or the recorded host named it
     */
    public record DeviceClass(String name, long memoryBytes, long maxBufferSize, long maxStorageBufferBindingSize) {
    }

    /**
     * The most an engine's buffer exceeds the tensor it holds when it rounds it up to a bucket (JSEP's bucket cache rounds
     * a 9 MiB weight to 12 MiB): a reference's largest buffer above this many times its largest known tensor was an
     * activation.
     */
    static final double WEIGHT_ROUNDING = 2.0;

    public MemoryFit {
        reasons = List.copyOf(reasons);
    }

    /** Whether the fit rests on the target's own measurement (no scaling). */
    public boolean measuredItself() {
        return model.equals(reference) && target.equals(from);
    }

    /**
     * The fit of {@code target} from {@code measured}, {@code from}'s ledger.
     *
     * @param sameModel the ledger is the target's own
     */
    public static MemoryFit predict(String model, Sizes target, String reference, String referenceCase, GpuLedger measured, Sizes from,
                                    boolean sameModel, DeviceClass device) {
        long peak;
        long largest;
        if (sameModel) {
            peak = measured.peakBytes();
            largest = measured.largestBufferBytes();
        } else {
            double k = from.weightBytes() > 0 ? (double) target.weightBytes() / from.weightBytes() : 1;
            peak = Math.round(measured.peakBytes() * k);
            double rounding = from.largestTensorBytes() > 0 ? (double) measured.largestBufferBytes() / from.largestTensorBytes() : Double.NaN;
            largest = rounding <= WEIGHT_ROUNDING ? Math.round(target.largestTensorBytes() * rounding)
                    : Math.max(target.largestTensorBytes(), Math.round(measured.largestBufferBytes() * k));
        }
        List<String> reasons = new ArrayList<>();
        List<Boolean> held = new ArrayList<>();
        if (device.memoryBytes() > 0) {
            held.add(peak <= device.memoryBytes());
            reasons.add(String.format(Locale.ROOT, "peak GPU bytes %s %s the device's %s", Bytes.iec(peak), peak <= device.memoryBytes()
                    ? "within" : "above", Bytes.iec(device.memoryBytes())));
        }
        limit(largest, "maxBufferSize", device.maxBufferSize(), held, reasons);
        limit(largest, "maxStorageBufferBindingSize", device.maxStorageBufferBindingSize(), held, reasons);
        Verdict v = held.contains(false) ? Verdict.DOES_NOT_FIT : held.isEmpty() ? Verdict.UNKNOWN : Verdict.FITS;
        if (v == Verdict.UNKNOWN) {
            reasons.add("the device class gives no memory and no buffer limit to hold the figures against");
        }
        return new MemoryFit(model, reference, referenceCase, measured, target, sameModel ? target : from, peak, largest, device, v, reasons,
                null);
    }

    /** This prediction with what the target itself measured, to check it against. */
    public MemoryFit checkedAgainst(GpuLedger own) {
        return new MemoryFit(model, reference, referenceCase, measured, target, from, peakBytes, largestBufferBytes, device, verdict, reasons, own);
    }

    /** The largest buffer against one of the device's limits, when the device class gives it. */
    private static void limit(long largest, String name, long limit, List<Boolean> held, List<String> reasons) {
        if (limit > 0) {
            held.add(largest <= limit);
            reasons.add(String.format(Locale.ROOT, "largest buffer %,d bytes %s the %s of %,d bytes", largest, largest <= limit ? "within" : "above",
                    name, limit));
        }
    }

    /** The prediction in words, labelled as one, with what it rests on. */
    public String describe() {
        StringBuilder sb = new StringBuilder();
        sb.append("PREDICTION (not a measurement): ").append(model).append(" on WebGPU, ").append(device.name()).append(": ")
                .append(verdict.name().toLowerCase(Locale.ROOT).replace('_', ' ')).append('\n');
        sb.append(String.format(Locale.ROOT, "  peak GPU %s, largest buffer %s%n", Bytes.iec(peakBytes), Bytes.iec(largestBufferBytes)));
        for (String r : reasons) {
            sb.append("  - ").append(r).append('\n');
        }
        if (model.equals(reference) && target.equals(from)) {
            sb.append("  rests on: this model's own measured ledger (").append(referenceCase).append("): ").append(measured.describe()).append('\n');
        } else {
            sb.append(String.format(Locale.ROOT, "  rests on: %s's measured ledger (%s): %s; scaled by weights %s / %s (x%.2f)%n",
                    reference, referenceCase, measured.describe(), Bytes.iec(target.weightBytes()), Bytes.iec(from.weightBytes()),
                    from.weightBytes() > 0 ? (double) target.weightBytes() / from.weightBytes() : 1.0));
        }
        if (actual != null) {
            sb.append(String.format(Locale.ROOT, "  measured since: peak GPU %s, largest buffer %s (predicted / measured: %.3f and %.3f)%n",
                    Bytes.iec(actual.peakBytes()), Bytes.iec(actual.largestBufferBytes()), (double) peakBytes / actual.peakBytes(),
                    (double) largestBufferBytes / actual.largestBufferBytes()));
        }
        return sb.toString();
    }
}
