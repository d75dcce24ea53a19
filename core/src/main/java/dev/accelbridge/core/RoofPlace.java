package dev.accelbridge.core;

import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * A timed case's place under its device's roof: the FLOP/s it achieved and the bytes of weights it read a second, beside the
 * device's peak; for a generation, its tokens a second beside the bound the device's memory bandwidth sets for the model's
 * bytes a token. The one reckoning every reader uses. A figure that does not stand as a speed ({@link SpeedStanding}) is
 * not placed.
 *
 * @param flopsPerSecond       FLOP/s achieved (single pass: the model's FLOPs a item × batch over p50; a generation: FLOPs a
 *                             token × decode tokens a second); empty where the model's FLOPs are not known
 * @param weightBytesPerSecond bytes of weights read a second (a pass, or a token, reads every weight once at least); empty
 *                             where not known
 * @param tokensPerSecond      a generation's decode rate; empty for a single pass
 * @param peak                 the device's roof; empty where not known (a software adapter, a part not listed)
 */
@PublicApi
public record RoofPlace(OptionalDouble flopsPerSecond, OptionalDouble weightBytesPerSecond, OptionalDouble tokensPerSecond,
                        Optional<DevicePeak> peak) {
    /**
     * {@code r}'s place: empty where it has no timings, its figure does not stand as a speed, or nothing of its cost is known.
     *
     * @param cost the cost of {@code r}'s model file
     * @param peak the roof of the device {@code r} ran on, where known
     */
    public static Optional<RoofPlace> of(RunResult r, ModelCost cost, Optional<DevicePeak> peak) {
        Optional<Timings> t = r.timings();
        if (t.isEmpty() || !SpeedStanding.of(r).counts() || cost.flopsPerItem().isEmpty() && cost.weightBytes().isEmpty()) {
            return Optional.empty();
        }
        double perSecond; // items (single pass) or tokens (generation) a second
        OptionalDouble tokens = OptionalDouble.empty();
        if (t.get().figures() instanceof Decoding d) {
            perSecond = d.tokensPerSec();
            tokens = Double.isFinite(perSecond) ? OptionalDouble.of(perSecond) : OptionalDouble.empty();
        } else {
            perSecond = t.get().p50Ms() > 0 ? 1000.0 / t.get().p50Ms() : Double.NaN;
        }
        if (!(perSecond > 0) || !Double.isFinite(perSecond)) {
            return Optional.empty();
        }
        int items = t.get().figures() instanceof Decoding ? 1 : Math.max(1, r.id().batchSize());
        OptionalDouble flops = cost.flopsPerItem().isPresent() ? OptionalDouble.of(cost.flopsPerItem().getAsDouble() * items * perSecond)
                : OptionalDouble.empty();
        OptionalDouble bytes = cost.weightBytes().isPresent() ? OptionalDouble.of(cost.weightBytes().getAsLong() * perSecond)
                : OptionalDouble.empty();
        return Optional.of(new RoofPlace(flops, bytes, tokens, peak));
    }

    /** The achieved FLOP/s as a share of the compute roof; empty without both. */
    public OptionalDouble computeShare() {
        return flopsPerSecond.isPresent() && peak.isPresent() ? OptionalDouble.of(flopsPerSecond.getAsDouble() / peak.get().flopsPerSecond())
                : OptionalDouble.empty();
    }

    /** The weights read a second as a share of the device's memory bandwidth; empty without both. */
    public OptionalDouble bandwidthShare() {
        return weightBytesPerSecond.isPresent() && peak.isPresent() && peak.get().bytesPerSecond().isPresent()
                ? OptionalDouble.of(weightBytesPerSecond.getAsDouble() / peak.get().bytesPerSecond().getAsDouble()) : OptionalDouble.empty();
    }

    /**
     * The place in words: "41 % of the compute roof", with the bandwidth's share and, for a generation, the tokens a second the
     * bandwidth bounds it to; "no roof known for this device" without a peak. A share above 100 % is said as it is (a
     * CPU reckoned at its reported clock may boost above it).
     */
    public String words() {
        if (peak.isEmpty()) {
            return "no roof known for this device";
        }
        StringBuilder b = new StringBuilder();
        if (computeShare().isPresent()) {
            b.append(String.format(Locale.ROOT, "%.0f %% of the compute roof", computeShare().getAsDouble() * 100));
        }
        if (bandwidthShare().isPresent()) {
            b.append(b.isEmpty() ? "" : "; ").append(String.format(Locale.ROOT, "%.0f %% of the memory bandwidth", bandwidthShare().getAsDouble() * 100));
            OptionalDouble bound = tokensPerSecond.isPresent()
                    ? peak.get().tokensPerSecondBound(weightBytesPerSecond.getAsDouble() / tokensPerSecond.getAsDouble()) : OptionalDouble.empty();
            if (bound.isPresent()) {
                b.append(String.format(Locale.ROOT, " (bound %.0f tokens/s)", bound.getAsDouble()));
            }
        } else if (peak.get().bytesPerSecond().isEmpty()) {
            b.append(b.isEmpty() ? "" : "; ").append("memory bandwidth unknown");
        }
        return b.isEmpty() ? "no figure to place" : b.toString();
    }
}
