package dev.accelbridge.junit5;

import dev.accelbridge.api.CaseResult;
import dev.accelbridge.api.SessionRun;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.Status;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.Extension;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.jupiter.api.extension.TestTemplateInvocationContext;
import org.opentest4j.TestAbortedException;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One invocation of a {@link Backends} method: one case's result, its name (the case's {@link CaseResult#label()}, with
 * the model first when the template ran more than one case), the result as the method's parameter, and an abort with the
 * probe's evidence when the backend cannot run here.
 */
final class CaseInvocation implements TestTemplateInvocationContext {
    private final String name;
    private final CaseResult result;
    private final String runId;

    CaseInvocation(String name, CaseResult result, String runId) {
        this.name = name;
        this.result = result;
        this.runId = runId;
    }

    /** The invocations of a template's run: per case (model, inputs, precision, batch), per requested backend, per lane (and engine). */
    static List<CaseInvocation> of(TemplateSpec spec, SessionRun run) {
        Set<String> cases = new LinkedHashSet<>();
        run.results().stream().filter(r -> spec.requested().contains(r.requested())).forEach(r -> cases.add(r.id().inputKey()));
        List<CaseInvocation> out = new ArrayList<>();
        for (String c : cases) {
            for (BackendId b : spec.requested()) {
                List<LaneId> lanes = b.isBrowser() ? spec.browsers().stream().map(LaneId::of).toList() : List.of(LaneId.NATIVE);
                for (LaneId lane : lanes) {
                    // one per engine where WebGPU ran on more than one (its label names the engine)
                    run.on(b, lane).stream().filter(x -> x.id().inputKey().equals(c)).forEach(r ->
                            out.add(new CaseInvocation((cases.size() > 1 ? caseName(r.id()) + ": " : "") + r.label(), r, run.runId())));
                }
            }
        }
        if (out.isEmpty()) {
            throw new IllegalStateException("Run " + run.runId() + " has no result for " + spec.requested() + "; its results: "
                    + run.results().stream().map(r -> r.id().key()).toList());
        }
        return out;
    }

    private static String caseName(CaseId id) {
        return id.model() + " " + id.inputSet() + id.dimensionsTag();
    }

    @Override
    public String getDisplayName(int invocationIndex) {
        return name;
    }

    @Override
    public List<Extension> getAdditionalExtensions() {
        return List.of(new ParameterResolver() {
            @Override
            public boolean supportsParameter(ParameterContext p, ExtensionContext e) {
                return p.getParameter().getType() == CaseResult.class;
            }

            @Override
            public Object resolveParameter(ParameterContext p, ExtensionContext e) {
                return result;
            }
        }, (BeforeEachCallback) this::beforeEach);
    }

    private void beforeEach(ExtensionContext ctx) {
        Map<String, String> entry = new LinkedHashMap<>();
        entry.put("accelbridge.run", runId);
        entry.put("accelbridge.case", result.id().key());
        entry.put("accelbridge.result", result.summary());
        ctx.publishReportEntry(entry);
        if (result.status() == Status.UNAVAILABLE) {
            // Not a pass and not a failure of the model: this host cannot run the backend, and the probe says why.
            throw new TestAbortedException(result.label() + " cannot run here: " + result.reason().orElse("no evidence recorded")
                    + " (run " + runId + ")");
        }
    }
}
