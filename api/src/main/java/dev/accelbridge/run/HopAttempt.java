package dev.accelbridge.run;

import dev.accelbridge.bisect.LoadRepros;
import dev.accelbridge.core.BackendException;
import dev.accelbridge.core.BackendProvider;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.DiagnosedLoadException;
import dev.accelbridge.core.Execution;
import dev.accelbridge.core.ExecutionRequest;
import dev.accelbridge.core.HostClock;
import dev.accelbridge.core.LoadDiagnosis;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.UnsupportedModelException;

import java.nio.file.Path;
import java.util.Optional;

/**
 * What one hop's execution gave: its figures, or the reason it failed (and whether the model is unsupported there); and
 * whether the figures are another cell's measurement of the same work ({@link SharedMeasurements}).
 *
 * @param execution   the figures, or null when it failed
 * @param failure     why it failed, staged, or null
 * @param unsupported whether the model is unsupported there
 * @param shared      whether the figures are another cell's
 * @param load        why the runtime refused the model at the case's optimization level, where it diagnosed that (the
 *                    value the row keeps in its analysis, beside the sentence in its reason)
 */
record HopAttempt(Execution execution, String failure, boolean unsupported, boolean shared, Optional<LoadDiagnosis> load) {
    private HopAttempt(Execution execution, String failure, boolean unsupported, boolean shared) {
        this(execution, failure, unsupported, shared, Optional.empty());
    }

    /** The work another cell of the lane measured for the same case. */
    static HopAttempt shared(Execution measured) {
        return new HopAttempt(measured, null, false, true);
    }

    /**
     * {@code request} run by {@code provider}; a load a graph optimizer breaks is run again at the level that loads it
     * ({@link LoadConfirmation}, held to native CPU's run by {@code cpu}, null where none is at hand) and gets its single-graph repro written under
     * {@code loadRepros} (null: none written), both said in its reason.
     */
    static HopAttempt at(BackendProvider provider, BackendProvider cpu, ExecutionRequest request, ModelCase mc,
                         CaseId id, Path loadRepros) {
        try {
            double loadBefore = HostClock.loadAverage();
            return new HopAttempt(provider.execute(request).withLoad(loadBefore, HostClock.loadAverage()).sampledBy(request), null, false, false);
        } catch (DiagnosedLoadException e) {
            String repro = loadRepros == null ? "" : LoadRepros.write(loadRepros, id, e.diagnosis())
                    .map(dir -> "; a single-graph repro (" + e.diagnosis().repro().nodes() + " nodes) fails alone: " + dir).orElse("");
            String there = LoadConfirmation.at(provider, cpu, request, id, e.diagnosis());
            return new HopAttempt(null, CaseExecutor.staged(e.phase().stage(), e.oneLine() + there + repro, mc), false, false,
                    Optional.of(e.diagnosis()));
        } catch (UnsupportedModelException e) {
            return new HopAttempt(null, CaseExecutor.staged(e.phase().stage(), e.oneLine(), mc), true, false);
        } catch (BackendException e) {
            return new HopAttempt(null, CaseExecutor.staged(e.phase().stage(), e.oneLine(), mc), false, false);
        } catch (RuntimeException e) {
            // A provider bug must not end the run: it is this case's failure, kept with its type.
            return new HopAttempt(null, CaseExecutor.staged("run", e.toString(), mc), false, false);
        }
    }
}
