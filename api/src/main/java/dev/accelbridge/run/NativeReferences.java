package dev.accelbridge.run;

import dev.accelbridge.core.BackendException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.fallback.Chain;

import java.time.Duration;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Every case's reference, made first: the native CPU run of this process's lane, which is itself a case when cpu is asked
 * for there (its result is written then, and the scheduler does not run it again); a case whose cpu run is not asked for
 * gets one untimed-for-reporting run. A derived variant is judged against its fp32 case's reference. Every lane's cases,
 * native and browser, are judged against these.
 */
final class NativeReferences {
    private final NativeProviders natives;
    private final NativeLaneSource source;
    private final CaseExecutor executor;
    private final RunAccount account;
    private final HostInfo host;

    NativeReferences(NativeProviders natives, NativeLaneSource source, CaseExecutor executor, RunAccount account, HostInfo host) {
        this.natives = natives;
        this.source = source;
        this.executor = executor;
        this.account = account;
        this.host = host;
    }

    /**
     * Makes the references of {@code set}'s cases, running (and emitting) the native CPU cases of this process's lane when
     * {@code lanes} asks for it and they are not yet {@code done}.
     *
     * @param named every native backend the run's chains name, which the lane probes
     */
    Map<ModelCase, Reference> make(RunPlan plan, ModelSet set, List<LaneId> lanes, Collection<BackendId> named, String runId,
                                   Set<CaseId> done, LaneSink sink) {
        LaneId here = source.here();
        Lane local = source.open(here, named);
        local.probes().values().forEach(sink::probe);
        CaseContext ctx = new CaseContext(runId, host, local.provenance(), here);
        boolean cpuHere = lanes.contains(here) && plan.targets().nativeBackends().contains(BackendId.CPU);
        Map<ModelCase, Reference> references = new HashMap<>();
        Map<CaseId, Reference> nativeCase = new HashMap<>();
        for (ModelCase mc : set.cases()) {
            // a copy of a case at session options that do not apply natively is the same native case: run it once
            Reference same = nativeCase.get(CaseId.of(mc, BackendId.CPU, here));
            if (same != null) {
                references.put(mc, same);
                continue;
            }
            ModelCase fp32 = set.fp32Of().get(mc);
            Reference judge = fp32 == null ? null
                    : references.computeIfAbsent(fp32, b -> Reference.expected(b).orElseGet(() -> referenceOnly(b))).asFp32();
            Reference expected = Reference.expected(mc).orElse(null);
            Reference own;
            if (cpuHere && !done.contains(CaseId.of(mc, BackendId.CPU, here))) {
                // a variant's own run is its reference: judged against fp32 for its fidelity alone
                CaseExecutor.Outcome o = executor.run(ctx, mc, Chain.of(BackendId.CPU), local.probes(), local.providers(),
                        judge == null ? null : judge.forVariantItself());
                sink.emit(o.result());
                // the native lane's fallbacks to cpu (cuda → openvino → cpu) are judged on this one measurement
                executor.measurements().kept(CaseId.of(mc, BackendId.CPU, here), o.execution().orElse(null));
                own = expected != null ? expected : o.execution().map(e -> Reference.nativeCpu(mc, e.outputs()))
                        .orElseGet(() -> Reference.missing("native CPU " + o.result().status() + ": " + o.result().reason()));
            } else {
                // no cpu case here, or one a resumed run has already stored: the outputs alone, one untimed run (a resumed run
                // timed its done cases again, 20,000 iterations each, though nothing was stored twice)
                own = expected != null ? expected : referenceOnly(mc);
            }
            references.put(mc, judge == null ? own : judge.withVariantRun(own, mc.precision()));
            nativeCase.put(CaseId.of(mc, BackendId.CPU, here), references.get(mc));
        }
        return references;
    }

    /** The native CPU outputs for a case whose cpu run is not itself asked for: one untimed-for-reporting run. */
    Reference referenceOnly(ModelCase mc) {
        BackendProvider cpu = natives.forBackend(BackendId.CPU);
        try {
            return Reference.nativeCpu(mc, account.time(RunAccount.Part.REFERENCES, () -> cpu.execute(
                    new ExecutionRequest(BackendId.CPU, mc, 0, 1, Duration.ofMinutes(5)))).outputs());
        } catch (BackendException e) {
            return Reference.missing("native CPU failed: " + e.oneLine());
        }
    }
}
