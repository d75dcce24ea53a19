package dev.accelbridge.core;

import java.util.List;

/**
 * What a provider returns for one executed case: the outputs of the last timed iteration (for the parity
 * check), the timings measured where inference happens, memory and provenance.
 *
 * @param outputs    output tensors
 * @param timings    load, first inference and timed samples (an execution ran: never null)
 * @param memory     process memory where measurable
 * @param provenance the runtime's side of provenance (browser, adapter, EPs, versions); host filled later
 * @param warnings   runtime warnings worth keeping (e.g. ORT's "nodes not placed on the requested provider")
 * @param analysis   the op profile, cold start and leak check the request asked for ({@link Analysis#NONE} otherwise)
 */
public record Execution(List<NamedTensor> outputs, Timings timings, MemoryUsage memory, Provenance provenance,
                        List<String> warnings, Analysis analysis) {
    public Execution {
        java.util.Objects.requireNonNull(timings, "timings: what did not run is not an execution");
        outputs = List.copyOf(outputs);
        warnings = List.copyOf(warnings);
        analysis = analysis == null ? Analysis.NONE : analysis;
    }

    /** An execution without drill-down. */
    public Execution(List<NamedTensor> outputs, Timings timings, MemoryUsage memory, Provenance provenance,
                     List<String> warnings) {
        this(outputs, timings, memory, provenance, warnings, Analysis.NONE);
    }

    /** This execution with the host's load average around it ({@link SampleQuality#withLoad}). */
    public Execution withLoad(double before, double after) {
        return new Execution(outputs, timings.withQuality(timings.quality().withLoad(before, after, HostClock.cores())), memory,
                provenance, warnings, analysis);
    }

    /** This execution as run by {@code request}: its figures marked indicative when it ran the verdict's window only. */
    public Execution sampledBy(ExecutionRequest request) {
        if (!request.verdictWindow()) {
            return this;
        }
        return new Execution(outputs, timings.withQuality(timings.quality().inVerdictWindow()), memory, provenance, warnings, analysis);
    }
}
