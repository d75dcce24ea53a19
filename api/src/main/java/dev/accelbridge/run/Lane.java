package dev.accelbridge.run;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.Provenance;

import dev.accelbridge.core.HostInfo;

import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * Where a group of cases executes: the native process, or one browser. A lane knows its providers and its
 * probes' answers; the {@link CaseExecutor} does the rest the same way for every lane.
 *
 * @param id         where its cases run, with the versions that make it this lane ({@code chromium@156+ort-web@1.30.0})
 * @param name       {@code native}, {@code chromium 156.0...}
 * @param providers  the provider of each backend
 * @param probes     availability of every backend the lane's chains name
 * @param provenance the lane's provenance for cases that never executed
 * @param host       the machine the lane runs on when it is not this one (a Grid node, a device that joined); empty here
 * @param renew      makes the lane's next case start afresh (a new page in a new browser) before a retry
 */
@PublicApi
public record Lane(LaneId id, String name, Function<BackendId, BackendProvider> providers, Map<BackendId, Availability> probes,
                   Provenance provenance, Optional<HostInfo> host, Runnable renew) {
    public Lane {
        probes = Map.copyOf(probes);
        host = host == null ? Optional.empty() : host;
        renew = renew == null ? () -> { } : renew;
    }

    /** A lane on this machine that has nothing to renew (the native process). */
    public Lane(LaneId id, String name, Function<BackendId, BackendProvider> providers, Map<BackendId, Availability> probes,
                Provenance provenance) {
        this(id, name, providers, probes, provenance, Optional.empty(), null);
    }

    /** The same lane with other providers (a test that wraps them, a decorator). */
    public Lane withProviders(Function<BackendId, BackendProvider> p) {
        return new Lane(id, name, p, probes, provenance, host, renew);
    }
}
