package dev.accelbridge.observe;

import dev.accelbridge.api.CaseResult;
import dev.accelbridge.api.RunRequest;
import dev.accelbridge.api.SessionRun;
import dev.accelbridge.browser.launch.WebGpuAdapter;
import dev.accelbridge.browser.observe.Observed;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.ModelCase;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.ModelSpec;
import dev.accelbridge.core.NamedTensor;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.RuntimeOption;
import dev.accelbridge.core.RuntimeOptions;
import dev.accelbridge.core.Untrusted;
import dev.accelbridge.run.DrillDown;
import dev.accelbridge.run.ModelSet;
import dev.accelbridge.run.RunLimits;
import dev.accelbridge.run.RunPlan;
import dev.accelbridge.run.Targets;
import dev.accelbridge.suites.OnnxModels;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;

/**
 * The sessions an app made, replayed on other lanes ({@link ObserveOptions#replay}): each session whose model was kept
 * and one of whose runs was recorded with every input's values becomes a case (its model, those inputs), run on the
 * replay's targets as any case is (native CPU's reference, the tolerance, the bisection of a wrong output), its rows added
 * to the observation's run. A replay's input set is the observed row's with {@code replay of } before it, so each row
 * names the session it replays.
 */
public final class ObservedReplays {
    /** What a replay's input set begins with. */
    public static final String PREFIX = "replay of ";

    /**
     * A session to replay: its model file, its row's model name and input set, its run with every input's values, and the
     * session options the app made it with (its graph optimization level, WebGPU graph capture), which the replay runs with.
     */
    public record Replayable(Path model, String name, String inputSet, List<NamedTensor> inputs, RuntimeOptions options) {
    }

    private ObservedReplays() {
    }

    /**
     * The session options session {@code s} was made with, as Accelbridge's cases take them: its graph optimization level
     * and WebGPU graph capture (an EP option on the native WebGPU EP, a config entry on JSEP), so a replay of its run runs
     * with the app's own; the defaults where the app gave none Accelbridge knows.
     */
    public static RuntimeOptions options(Observed.Session s) {
        java.util.Map<RuntimeOption, String> m = new java.util.EnumMap<>(RuntimeOption.class);
        if (s.optimization() != null && RuntimeOption.OPTIMIZATION.choices().contains(s.optimization())) {
            m.put(RuntimeOption.OPTIMIZATION, s.optimization());
        }
        if ("true".equals(s.config().get("enableGraphCapture")) || s.providerOptions().stream().anyMatch(o -> "1".equals(o.get("enableGraphCapture")))) {
            m.put(RuntimeOption.GRAPH_CAPTURE, "on");
        }
        return new RuntimeOptions(m);
    }

    /** The session's replay, when its model was kept and a run of it has every input's values (the first such run). */
    public static Optional<Replayable> of(Observed.Session s, Optional<Path> model, RunResult row, Function<Observed.Tensor, Optional<NamedTensor>> values) {
        for (int i = 0; i < s.runs().size(); i++) {
            Optional<List<NamedTensor>> inputs = inputs(s, i, model, values);
            if (inputs.isPresent()) {
                return Optional.of(new Replayable(model.get(), row.id().model(), row.id().inputSet(), inputs.get(), options(s)));
            }
        }
        return Optional.empty();
    }

    /** The inputs the app fed the session's run {@code run} (0: its first), when its model was kept and that run has every input's values. */
    public static Optional<List<NamedTensor>> inputs(Observed.Session s, int run, Optional<Path> model, Function<Observed.Tensor, Optional<NamedTensor>> values) {
        Observed.Run r = run < 0 || run >= s.runs().size() ? null : s.runs().get(run);
        if (model.isEmpty() || r == null || r.failed() || r.inputs().isEmpty() || !r.inputs().stream().allMatch(Observed.Tensor::hasValues)) {
            return Optional.empty();
        }
        List<NamedTensor> inputs = r.inputs().stream().map(values).flatMap(Optional::stream).toList();
        return inputs.size() < r.inputs().size() ? Optional.empty() : Optional.of(inputs);
    }

    /**
     * {@code run} replayed on the lane session {@code s} was observed in ({@code browser} at {@code browserVersion}, the
     * onnxruntime-web release and engine the app loaded, {@code adapter}'s WebGPU) on {@code backend} alone, as a run of
     * the route's ({@code runner}; added to run {@code runId} where given); its rows. The one way both routes replay a
     * wrong session for its bisection.
     */
    public static List<RunResult> onOwnLane(Replayable run, Observed.Session s, BackendId backend, BrowserKind browser, String browserVersion,
                                     WebGpuAdapter adapter, String runId, Function<RunRequest, SessionRun> runner, List<String> notes,
                                     Optional<Duration> left) {
        Targets lane = Targets.builder().setBackends(List.of(backend)).optLane(ObservedRows.lane(browser, browserVersion, s))
                .optWebGpuAdapter(adapter).optParallel(1).build();
        return replay(List.of(run), lane, runId, runner, notes, left);
    }

    /**
     * Runs the sessions on {@code targets}, adding their rows to run {@code runId}, and returns the rows; a session whose
     * model cannot be read as a case is left out, said in {@code notes}.
     */
    public static List<RunResult> replay(List<Replayable> sessions, Targets targets, String runId, Function<RunRequest, SessionRun> runner,
                                  List<String> notes) {
        return replay(sessions, targets, runId, runner, notes, Optional.empty());
    }

    /**
     * As {@link #replay(List, Targets, String, Function, List)}, added to run {@code runId} where one is given (else a run
     * of its own), each case and the run's bisections within {@code left} where that is given.
     */
    public static List<RunResult> replay(List<Replayable> sessions, Targets targets, String runId, Function<RunRequest, SessionRun> runner,
                                  List<String> notes, Optional<Duration> left) {
        List<ModelCase> cases = new ArrayList<>();
        for (Replayable r : sessions) {
            try {
                ModelSpec spec = OnnxModels.inspect(r.model(), ModelFamily.OTHER, r.name(), "replayed from an observed app");
                // at the dtype its graph computes in, as run takes a model file: a q8 file is held with a quantized
                // file's tolerance whether observed or replayed
                cases.add(new ModelCase(spec, Untrusted.bounded(PREFIX + r.inputSet(), ObservedRows.MAX_INPUT_SET), r.inputs(), Optional.empty())
                        .withPrecision(ObservedJudge.precision(Optional.of(r.model())).orElse(Precision.FP32)).withRuntimeOptions(r.options()));
            } catch (RuntimeException e) {
                notes.add(Untrusted.bounded("the session of " + r.name() + " could not be replayed: " + e.getMessage(), 300));
            }
        }
        if (cases.isEmpty()) {
            return List.of();
        }
        RunPlan.Builder plan = RunPlan.builder().optTargets(targets);
        // within the time left: each run of the case, and the bisections together (one started runs its exposed runs each
        // within the same bound)
        left.ifPresent(d -> plan.optLimits(RunLimits.builder().optCaseTimeout(d).build())
                .optDrillDown(DrillDown.builder().optBisectBudget(d).build()));
        SessionRun run = runner.apply(RunRequest.builder().setPlan(plan.build()).optModels(new ModelSet(cases, List.of()))
                .optLabel(runId == null ? "replay of a session observed in a page" : "replay of the sessions observed in run " + runId)
                .optContinueOf(runId).build());
        return run.results().stream().map(CaseResult::result).toList();
    }
}
