package dev.accelbridge.core;

import java.util.OptionalDouble;
import java.util.OptionalLong;

/**
 * What one inference of a model costs, where known: its FLOPs for one item of a batch (a decoder's: one token at an empty
 * cache; matrix products and convolutions, element-wise ops not counted), known only for a model Accelbridge authored, and
 * the bytes of its weights (every initializer, at its stored type), which a pass reads at least once.
 *
 * @param flopsPerItem approximate FLOPs of one item (a decoder: one token); empty where not known
 * @param weightBytes  the bytes of its initializers; empty where not known
 */
@PublicApi
public record ModelCost(OptionalDouble flopsPerItem, OptionalLong weightBytes) {
    /** Nothing known. */
    public static final ModelCost UNKNOWN = new ModelCost(OptionalDouble.empty(), OptionalLong.empty());

    public ModelCost {
        flopsPerItem = flopsPerItem == null || flopsPerItem.isPresent() && !(flopsPerItem.getAsDouble() > 0) ? OptionalDouble.empty()
                : flopsPerItem;
        weightBytes = weightBytes == null || weightBytes.isPresent() && weightBytes.getAsLong() < 0 ? OptionalLong.empty() : weightBytes;
    }

    /** A model's cost from its figures; a figure that is not positive (NaN, unknown) is left unknown. */
    public static ModelCost of(double flopsPerItem, long weightBytes) {
        return new ModelCost(flopsPerItem > 0 ? OptionalDouble.of(flopsPerItem) : OptionalDouble.empty(),
                weightBytes >= 0 ? OptionalLong.of(weightBytes) : OptionalLong.empty());
    }
}
