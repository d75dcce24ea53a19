package dev.accelbridge.bridge.run;

import dev.accelbridge.core.Availability;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.RunResult;

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
}
