package dev.accelbridge.fallback;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Turns a chain and the probes' answers into a {@link Resolution}. Pure: same inputs, same answer.
 * A candidate is chosen only on a positive probe answer; one the probes did not answer for is rejected
 * with "not probed", never assumed present.
 */
@PublicApi
public final class Resolver {
    private Resolver() {
    }

    /** Resolves {@code chain} against {@code probes} (backend → its probe's answer). */
    public static Resolution resolve(Chain chain, Map<BackendId, Availability> probes) {
        List<BackendId> hops = chain.hops();
        List<HopState> states = new ArrayList<>(hops.size());
        List<String> evidence = new ArrayList<>(hops.size());
        for (BackendId b : hops) {
            Availability a = probes == null ? null : probes.get(b);
            if (a == null) {
                states.add(HopState.NOT_PROBED);
                evidence.add("not probed");
            } else {
                states.add(a.available() ? HopState.AVAILABLE : HopState.UNAVAILABLE);
                evidence.add(Resolution.describe(a));
            }
        }
        return new Resolution(chain, states, evidence);
    }

    /** Same, with probe answers given as a list (later answers for the same backend win). */
    public static Resolution resolve(Chain chain, List<Availability> probes) {
        Map<BackendId, Availability> m = new java.util.EnumMap<>(BackendId.class);
        for (Availability a : probes) {
            m.put(a.backend(), a);
        }
        return resolve(chain, m);
    }
}
