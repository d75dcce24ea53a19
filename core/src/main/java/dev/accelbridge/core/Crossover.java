package dev.accelbridge.core;

import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Where one backend overtakes another along a sweep: the smallest size from which the challenger's median is below the
 * incumbent's at that size and every larger one measured on both. Sizes with a figure on one side only are left out; a
 * point whose figure does not stand as a speed is not a point (the caller leaves it out).
 *
 * @param from       the size it overtakes from; empty where it does not within the sweep
 * @param largest    the largest size measured on both sides
 * @param ratioThere the incumbent's median over the challenger's at {@code from} (above 1), NaN without a crossing
 * @param points     how many sizes were measured on both sides
 */
@PublicApi
public record Crossover(Optional<Integer> from, int largest, double ratioThere, int points) {
    /** One size measured on both sides: the challenger's and the incumbent's median, in ms. */
    public record Point(int size, double challengerMs, double incumbentMs) {
    }

    /** The crossing of {@code points}; empty with fewer than two sizes measured on both sides. */
    public static Optional<Crossover> of(List<Point> points) {
        List<Point> both = points.stream().filter(p -> p.challengerMs() > 0 && p.incumbentMs() > 0
                && Double.isFinite(p.challengerMs()) && Double.isFinite(p.incumbentMs())).sorted(Comparator.comparingInt(Point::size)).toList();
        if (both.size() < 2) {
            return Optional.empty();
        }
        int at = both.size();
        while (at > 0 && both.get(at - 1).challengerMs() < both.get(at - 1).incumbentMs()) {
            at--;
        }
        int largest = both.get(both.size() - 1).size();
        if (at == both.size()) {
            return Optional.of(new Crossover(Optional.empty(), largest, Double.NaN, both.size()));
        }
        Point p = both.get(at);
        return Optional.of(new Crossover(Optional.of(p.size()), largest, p.incumbentMs() / p.challengerMs(), both.size()));
    }

    /** In words: "from width 512 (1.8× faster there)", or "not within the sweep (up to width 1024)". */
    public String words(String unit) {
        return from.map(f -> String.format(Locale.ROOT, "from %s %d (%.2f× faster there)", unit, f, ratioThere))
                .orElse(String.format(Locale.ROOT, "not within the sweep (up to %s %d)", unit, largest));
    }
}
