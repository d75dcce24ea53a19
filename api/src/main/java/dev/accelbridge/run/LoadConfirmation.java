package dev.accelbridge.run;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.LoadDiagnosis;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.RuntimeOption;
import dev.accelbridge.core.RuntimeOptions;
import dev.accelbridge.core.Scenario;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * What a load an optimizer breaks does at the level that loads it, so its row says more than that it loads: the case run
 * once there on its own backend and, off native CPU, held to native CPU's run of the same file at that level with the
 * case's tolerance ("loads and PASSES"). Natively on the CPU the run is the reference itself, so it is said to load and
 * run. A generation is not run again (its verdict needs the whole judge): its row says only where it loads.
 */
final class LoadConfirmation {
    private LoadConfirmation() {
    }

    /**
     * "; at optimization=disabled it loads and PASSES (max abs err ..., against native-cpu at optimization=disabled)", or ""
     * for a generation.
     *
     * @param cpu native CPU, or null when none is at hand (then the run is said to load and run, not judged)
     */
    static String at(BackendProvider provider, BackendProvider cpu, ExecutionRequest request, CaseId id, LoadDiagnosis d) {
        ModelCase mc = request.modelCase();
        if (!(mc.scenario() instanceof Scenario.SinglePass)) {
            return "";
        }
        Map<RuntimeOption, String> values = new LinkedHashMap<>(mc.runtimeOptions().values());
        values.put(RuntimeOption.OPTIMIZATION, d.loadsAt());
        ModelCase at = mc.withRuntimeOptions(new RuntimeOptions(values));
        String level = "at optimization=" + d.loadsAt();
        try {
            Execution there = provider.execute(new ExecutionRequest(request.backend(), at, 0, 1, request.timeout(), request.threads()));
            if (request.backend() == BackendId.CPU) {
                return "; " + level + " it loads and runs (native CPU is the reference itself: nothing to hold it to)";
            }
            if (cpu == null) {
                return "; " + level + " it loads and runs (no native CPU run at hand to hold it to)";
            }
            Execution ref = cpu.execute(new ExecutionRequest(BackendId.CPU, at, 0, 1, request.timeout(), request.threads()));
            Parity p = Parity.compare(ref.outputs(), there.outputs(), CaseExecutor.toleranceFor(at, id, request.backend()),
                    "native-cpu " + level);
            return "; " + level + " it loads and " + (p.within() ? "PASSES" : "is WRONG_OUTPUT") + " (" + p.describe() + ")";
        } catch (RuntimeException e) {
            return "; " + level + " it loads but its run failed: "
                    + (e instanceof AccelbridgeException a ? a.oneLine() : e.toString());
        }
    }
}
