package dev.accelbridge.core;

import java.util.List;
import java.util.OptionalInt;

/**
 * The width sweep ({@code --sweep}): one text encoder's layout (4 layers, 64-wide heads, a feed-forward four times as wide,
 * sequence 128) at widening hidden sizes, so the size at which WebGPU overtakes wasm or native on a device can be read off
 * one series. Declared once here: the suites author its models under these names, the reports find them by them.
 */
@PublicApi
public final class WidthSweep {
    /** The hidden sizes, smallest first. */
    public static final List<Integer> WIDTHS = List.of(64, 128, 256, 512, 768, 1024);
    /** Its layers. */
    public static final int LAYERS = 4;
    /** Its sequence length. */
    public static final int SEQUENCE = 128;
    private static final String PREFIX = "bert-sweep-w";

    private WidthSweep() {
    }

    /** The model name of the sweep's point at {@code width}. */
    public static String name(int width) {
        return PREFIX + width;
    }

    /** The width of a sweep model named {@code model}; empty for any other model. */
    public static OptionalInt width(String model) {
        if (model == null || !model.startsWith(PREFIX)) {
            return OptionalInt.empty();
        }
        try {
            int w = Integer.parseInt(model.substring(PREFIX.length()));
            return WIDTHS.contains(w) ? OptionalInt.of(w) : OptionalInt.empty();
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }
}
