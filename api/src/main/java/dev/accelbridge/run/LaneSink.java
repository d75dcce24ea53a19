package dev.accelbridge.run;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendException;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.FallbackHop;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.RunResult;

import java.time.Instant;
import java.util.List;
import java.util.function.Function;

/**
 * Where a lane's results, probes and news go, native or browser: the run's store, progress and bisection. Its methods may
 * be called from the browser lanes' threads.
 */
interface LaneSink {
    void emit(RunResult r);

    void info(String message);

    void probe(Availability a);

    void host(HostInfo h);

    /** The result with its bisection when it is wrong and bisection is on. */
    RunResult bisected(RunResult r, ModelCase mc, Function<BackendId, BackendProvider> providers);

    /**
     * Every case of a lane that would not open (its browser, its onnxruntime-web or its ONNX Runtime missing, unable to
     * run here or to start): its row with the status the failure means and its reason, so the run goes on.
     */
    default void cannotOpen(String runId, List<CaseId> cases, AccelbridgeException e, Provenance prov) {
        Status st = e instanceof BackendException be ? be.status() : Status.FAILED;
        for (CaseId id : cases) {
            emit(RunResult.notRun(runId, Instant.now(), id, st, e.oneLine(), prov,
                    List.of(new FallbackHop(id.requested(), false, e.oneLine()))));
        }
    }
}
