package dev.accelbridge.bridge.run;

import dev.accelbridge.nativerunner.process.OrtAxis;
import dev.accelbridge.core.VersionAxis;
import dev.accelbridge.core.VersionAxes;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.fallback.Chain;

import java.time.Duration;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * A run's native lanes: this process's ONNX Runtime, whose CPU run is every case's reference, then each other ONNX
 * Runtime version the plan asks for ({@code --ort}), each in a runner process of its own so native libraries never mix
 * ({@link NativeProviders#atVersion}). Every lane's cases are judged against this process's reference.
 */
final class NativeLanes {
    private final NativeProviders natives;
    private final CaseExecutor executor;
    private final RunAccount account;
    private final HostInfo host;
    private final Map<String, String> runtimeVersions;

    NativeLanes(NativeProviders natives, CaseExecutor executor, RunAccount account, HostInfo host, Map<String, String> runtimeVersions) {
        this.natives = natives;
        this.executor = executor;
        this.account = account;
        this.host = host;
        this.runtimeVersions = runtimeVersions;
    }

    /** This process's native lane: each native axis at its pinned version (ONNX Runtime as loaded here). */
    LaneId here() {
        LaneId h = LaneId.NATIVE;
        for (VersionAxis a : VersionAxes.onSide(false)) {
            h = h.with(a, a.pinned());
        }
        return h;
    }

    /**
     * Runs the native cases of {@code lanes} not yet {@code done} and returns every case's reference (made here even when
     * this process's lane is not asked for).
     */
    Map<ModelCase, Reference> run(RunPlan plan, ModelSet set, List<LaneId> lanes, String runId, Set<CaseId> done, LaneSink sink) {
        LaneId here = here();
        Lane local = lane(here, "native", natives::forBackend, plan, runId, sink);
        CaseContext ctx = new CaseContext(runId, host, local.provenance(), here);
        boolean cpuHere = lanes.contains(here) && plan.targets().nativeBackends().contains(BackendId.CPU);
        // references first, from the native CPU run (which is itself a case when cpu is asked for here)
        Map<ModelCase, Reference> references = new HashMap<>();
        for (ModelCase mc : set.cases()) {
            ModelCase fp32 = set.fp32Of().get(mc);
            Reference judge = fp32 == null ? null
                    : references.computeIfAbsent(fp32, b -> Reference.expected(b).orElseGet(() -> referenceOnly(b))).asFp32();
            Reference expected = Reference.expected(mc).orElse(null);
            Reference own;
            if (cpuHere) {
                CaseExecutor.Outcome o = executor.run(ctx, mc, Chain.of(BackendId.CPU), local.probes(), local.providers(), judge);
                if (!done.contains(CaseId.of(mc, BackendId.CPU, here))) {
                    sink.emit(o.result());
                }
                own = expected != null ? expected : o.execution().map(e -> Reference.nativeCpu(mc, e.outputs()))
                        .orElseGet(() -> Reference.missing("native CPU " + o.result().status() + ": " + o.result().reason()));
            } else {
                own = expected != null ? expected : referenceOnly(mc);
            }
            references.put(mc, judge == null ? own : judge.withVariantRun(own, mc.precision()));
        }
        if (lanes.contains(here)) {
            cases(plan, set, local, ctx, plan.targets().nativeBackends().stream().filter(b -> b != BackendId.CPU).toList(), references, done, sink);
        }
        for (LaneId other : lanes) {
            if (!other.equals(here)) {
                runElsewhere(plan, set, other, runId, references, done, sink);
            }
        }
        return references;
    }

    /** The cases of an ONNX Runtime version this process did not load, in its runner process. */
    private void runElsewhere(RunPlan plan, ModelSet set, LaneId target, String runId, Map<ModelCase, Reference> references,
                              Set<CaseId> done, LaneSink sink) {
        String ort = target.version(OrtAxis.DIMENSION.name());
        sink.info("starting a native runner with ONNX Runtime " + ort);
        BackendProvider p;
        try {
            p = account.time(RunAccount.Part.PROBES, () -> natives.atVersion(ort));
        } catch (AccelbridgeException e) {
            // that version cannot be had or will not start here: every case of it says so, the run goes on
            List<CaseId> cases = plan.targets().nativeBackends().stream().flatMap(b -> set.cases().stream().map(mc -> CaseId.of(mc, b, target)))
                    .filter(id -> !done.contains(id)).toList();
            sink.cannotOpen(runId, cases, e, Provenance.of(null, null, "djl", null, null, List.of(), versions(target)).withHost(host));
            return;
        }
        Lane lane = lane(target, "native ONNX Runtime " + ort, b -> p, plan, runId, sink);
        cases(plan, set, lane, new CaseContext(runId, host, lane.provenance(), target), plan.targets().nativeBackends(), references, done, sink);
    }

    private void cases(RunPlan plan, ModelSet set, Lane lane, CaseContext ctx, List<BackendId> requested,
                       Map<ModelCase, Reference> references, Set<CaseId> done, LaneSink sink) {
        for (BackendId b : requested) {
            for (ModelCase mc : set.cases()) {
                if (done.contains(CaseId.of(mc, b, lane.id()))) {
                    continue;
                }
                RunResult r = Retries.run(plan.limits().retries(), () -> executor.run(ctx, mc, plan.targets().chainOf(b), lane.probes(),
                        lane.providers(), references.get(mc)).result(), lane.renew(), sink::info);
                sink.emit(sink.bisected(r, mc, lane.providers()));
            }
        }
    }

    /** A native lane with its probes of every backend its chains name (and cpu, the reference). */
    private Lane lane(LaneId id, String name, Function<BackendId, BackendProvider> providers, RunPlan plan, String runId, LaneSink sink) {
        Set<BackendId> named = new LinkedHashSet<>();
        named.add(BackendId.CPU);
        plan.targets().nativeBackends().forEach(b -> named.addAll(plan.targets().chainOf(b).hops()));
        Map<BackendId, Availability> probes = new LinkedHashMap<>();
        for (BackendId b : named) {
            Availability a = account.time(RunAccount.Part.PROBES, () -> providers.apply(b).probe(b));
            probes.put(b, a);
            sink.probe(a);
        }
        return new Lane(id, name, providers, probes, Provenance.of(null, null, "djl", null, null, List.of(), versions(id)));
    }

    private Map<String, String> versions(LaneId lane) {
        Map<String, String> v = new LinkedHashMap<>(runtimeVersions);
        if (lane.version(OrtAxis.DIMENSION.name()) != null) {
            v.put("onnxruntime", lane.version(OrtAxis.DIMENSION.name()));
        }
        return v;
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
