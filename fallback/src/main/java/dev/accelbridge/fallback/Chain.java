package dev.accelbridge.fallback;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendKind;
import dev.accelbridge.core.PublicApi;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * An ordered fallback chain: the requested backend first, then the hops tried when it is missing or fails.
 * Validated on construction: at least one hop, {@code hops[0] == requested}, no duplicates, and all hops of
 * the same {@link dev.accelbridge.core.BackendKind} (a browser case cannot fall back to a native backend or
 * the other way round: they run in different places and would measure different things).
 *
 * @param requested the backend the user asked for
 * @param hops      every candidate, in order, starting with {@code requested}
 */
@PublicApi
public record Chain(BackendId requested, List<BackendId> hops) {
    public Chain {
        if (requested == null) {
            throw new InvalidChainException("A fallback chain needs a requested backend", "name a backend, e.g. webgpu,webnn-gpu,wasm");
        }
        if (hops == null || hops.isEmpty()) {
            throw new InvalidChainException("The fallback chain of " + requested + " is empty",
                    "list at least the requested backend, e.g. " + requested);
        }
        hops = List.copyOf(hops);
        if (hops.get(0) != requested) {
            throw new InvalidChainException("The fallback chain " + text(hops) + " does not start with the requested backend "
                    + requested, "put " + requested + " first");
        }
        Set<BackendId> seen = new HashSet<>();
        for (BackendId b : hops) {
            if (!seen.add(b)) {
                throw new InvalidChainException("The fallback chain " + text(hops) + " names " + b + " twice",
                        "list each backend once");
            }
            if (b.kind() != requested.kind()) {
                throw new InvalidChainException("The fallback chain " + text(hops) + " mixes browser and native backends ("
                        + requested + " is " + requested.kind().name().toLowerCase() + ", " + b + " is "
                        + b.kind().name().toLowerCase() + ")",
                        "keep a chain within one kind: browser (" + ids(BackendId.ofKind(BackendKind.BROWSER))
                                + ") or native (" + ids(BackendId.ofKind(BackendKind.NATIVE)) + ")");
            }
        }
    }

    /** A chain of the given hops; the first is the requested backend. */
    public static Chain of(BackendId... hops) {
        if (hops.length == 0) {
            throw new InvalidChainException("A fallback chain needs at least one backend", "e.g. webgpu,webnn-gpu,wasm");
        }
        return new Chain(hops[0], List.of(hops));
    }

    /** The hops after the requested one. */
    public List<BackendId> fallbacks() {
        return hops.subList(1, hops.size());
    }

    /** The command-line form, {@code webgpu,webnn-gpu,wasm}. */
    public String toCsv() {
        return hops.stream().map(BackendId::id).collect(Collectors.joining(","));
    }

    @Override
    public String toString() {
        return text(hops);
    }

    static String text(List<BackendId> hops) {
        return hops.stream().map(BackendId::id).collect(Collectors.joining(" → "));
    }

    private static String ids(List<BackendId> l) {
        return l.stream().map(BackendId::id).collect(Collectors.joining(", "));
    }
}
