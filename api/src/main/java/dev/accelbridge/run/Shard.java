package dev.accelbridge.run;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.AccelbridgeException;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Function;

/**
 * The i-th of n parts of a run ({@code --shard i/n}, like Playwright Test's): the plan's models, sorted by a stable key,
 * cut into n contiguous parts of nearly equal size. The same plan gives every machine the same cut, so n machines each
 * running one part, whose exports {@code merge} joins, cover the case list once.
 *
 * @param index 1-based part
 * @param total number of parts
 */
@PublicApi
public record Shard(int index, int total) {
    public Shard {
        if (total < 1 || index < 1 || index > total) {
            throw new AccelbridgeException("--shard " + index + "/" + total + " is not a part of the run",
                    "give --shard I/N with 1 <= I <= N, e.g. --shard 1/3");
        }
    }

    /**
     * Reads {@code I/N}.
     *
     * @throws AccelbridgeException for anything else
     */
    @com.fasterxml.jackson.annotation.JsonCreator
    public static Shard parse(String text) {
        String[] p = text.trim().split("/");
        try {
            if (p.length == 2) {
                return new Shard(Integer.parseInt(p[0].trim()), Integer.parseInt(p[1].trim()));
            }
        } catch (NumberFormatException e) {
            // fall through to the message below
        }
        throw new AccelbridgeException("--shard '" + text + "' is not I/N", "give --shard I/N, e.g. --shard 2/3");
    }

    /** The items of this part, in their given order: item k of the stably sorted list belongs to part k·n/size + 1. */
    public <T> List<T> select(List<T> items, Function<T, String> key) {
        List<T> sorted = new ArrayList<>(items);
        sorted.sort(Comparator.comparing(key));
        java.util.Set<T> mine = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
        for (int k = 0; k < sorted.size(); k++) {
            if ((long) k * total / sorted.size() + 1 == index) {
                mine.add(sorted.get(k));
            }
        }
        return items.stream().filter(mine::contains).toList();
    }

    /** {@code I/N}, as given and as a stored plan holds it. */
    @Override
    @com.fasterxml.jackson.annotation.JsonValue
    public String toString() {
        return index + "/" + total;
    }
}
