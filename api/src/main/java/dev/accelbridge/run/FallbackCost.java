package dev.accelbridge.run;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.Execution;

/** What a fallback cost, in the words its reason ends with: against the requested backend's latest run that worked here. */
final class FallbackCost {
    private FallbackCost() {
    }

    /** A fallback's reason with what it cost: its p50 against the requested backend's in the latest run where that worked here. */
    static String withCost(String reason, CaseId id, BackendId actual, Execution exec, CaseExecutor.CostLookup costs) {
        BackendId requested = id.requested();
        java.util.Optional<Double> before = costs.requestedP50(id);
        String cost = before.map(p -> String.format("; cost: %s p50 %.3f ms vs %s p50 %.3f ms in the latest run where %s worked here (x%.2f)",
                        actual, exec.timings().p50Ms(), requested, p, requested, exec.timings().p50Ms() / p))
                .orElse(String.format("; cost: %s p50 %.3f ms, no earlier run where %s worked on this host", actual,
                        exec.timings().p50Ms(), requested));
        return (reason == null ? "" : reason) + cost;
    }
}
