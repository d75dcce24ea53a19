package dev.accelbridge.run;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.annotation.JsonPOJOBuilder;
import dev.accelbridge.browser.page.PageAssets;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.RuntimeOptions;

import java.util.ArrayList;
import java.util.List;
import java.util.function.Consumer;
import java.util.stream.Collectors;

/**
 * What one run does, as five typed groups: what it runs ({@link Workload}), where and on which versions
 * ({@link Targets}), how many runs a case takes ({@link Sampling}), what a case may take ({@link RunLimits}) and what it
 * finds out beyond the matrix ({@link DrillDown}). Every starter maps onto these groups (the CLI's option mixins, the
 * dashboard's form, the JUnit annotations, the Java API), and the plan's JSON form ({@link PlanJson}) is the groups' own.
 *
 * @param workload  the models, how they are made and fed, precisions and batch sizes
 * @param targets   the backends and chains, browsers and drivers, runtime versions, lanes at once
 * @param sampling  warm-ups and timed iterations (every field set: the defaults fill what was not given)
 * @param limits    the case's time, session creation's time, threads, re-runs and output bytes
 * @param drillDown bisection of wrong outputs, per-op profiles and the re-creation leak check
 */
@PublicApi
@JsonDeserialize(builder = RunPlan.Builder.class)
public record RunPlan(Workload workload, Targets targets, Sampling sampling, RunLimits limits, DrillDown drillDown) {
    /** Fills the sampling's and the drill-down's silences, which depend on the workload. */
    public RunPlan {
        if (workload == null || targets == null) {
            throw new AccelbridgeException("A plan needs its workload and its targets", "build plans with RunPlan.builder()");
        }
        sampling = (sampling == null ? Sampling.DEFAULT : sampling).resolve(workload.conformance());
        limits = limits == null ? RunLimits.DEFAULT : limits;
        drillDown = (drillDown == null ? DrillDown.DEFAULT : drillDown).resolve(sampling.iterations());
        everyOptionApplies(workload, targets);
    }

    /**
     * Refuses a session option that no case of the plan would run with (the native WebGPU EP's own on JSEP lanes alone, a
     * WebGPU option without WebGPU): swept there, it would only repeat the same case under another name.
     *
     * @throws AccelbridgeException naming the option, where it applies and the fix
     */
    private static void everyOptionApplies(Workload workload, Targets targets) {
        List<LaneId> lanes = new ArrayList<>(targets.nativeLanes());
        if (!targets.browserBackends().isEmpty()) {
            lanes.addAll(targets.browserLanes());
        }
        for (RuntimeOptions ro : workload.runtimeOptions()) {
            ro.values().forEach((o, v) -> {
                boolean applies = lanes.stream().anyMatch(l -> targets.backendsOn(l).stream().anyMatch(b -> o.appliesTo(b, l)));
                if (!applies) {
                    String where = o.engines().isEmpty() ? "" : " on onnxruntime-web's "
                            + o.engines().stream().map(OrtWebEngine::id).sorted().collect(Collectors.joining(" or ")) + " engine";
                    throw new AccelbridgeException("--runtime-option " + o.id() + "=" + v + " applies to no case of this run: it means "
                            + "something only" + where + " on " + o.backends(), o.engines().isEmpty() ? "add one of " + o.backends()
                            + " to --backends, or leave the option out" : "run webgpu on the native WebGPU EP (--engines webgpu-ep, "
                            + "or no --engines), or leave the option out");
                }
            });
        }
    }

    /** A builder, in the manner of DJL's {@code Criteria}: each group configured by its own builder. */
    public static Builder builder() {
        return new Builder();
    }

    /**
     * The intra-op thread count both sides use: the plan's, else this host's cores shared among the parallel browser
     * lanes (so N lanes do not each take every core, and native runs with what one lane gets).
     */
    public int effectiveThreads() {
        return limits.threads().orElseGet(() -> Math.max(1, Runtime.getRuntime().availableProcessors() / targets.parallel()));
    }

    /** The browser lanes: each browser at each combination of the browser axes' versions ({@link Targets#browserLanes()}). */
    public List<LaneId> browserLanes() {
        return targets.browserLanes();
    }

    /**
     * Builds a {@link RunPlan}; {@link #build()} refuses a plan that cannot run, naming the option and the fix. The CLI
     * ({@code run}, {@code serve}, {@code --resume}, {@code --plan}), the dashboard, the JUnit extension and the Java API
     * all build plans here, and a stored plan is read back through it.
     */
    @JsonPOJOBuilder(withPrefix = "opt")
    public static final class Builder {
        private final Workload.Builder workload = Workload.builder();
        private final Targets.Builder targets = Targets.builder();
        private final Sampling.Builder sampling = Sampling.builder();
        private final RunLimits.Builder limits = RunLimits.builder();
        private final DrillDown.Builder drillDown = DrillDown.builder();
        private Workload workloadGiven;
        private Targets targetsGiven;
        private Sampling samplingGiven;
        private RunLimits limitsGiven;
        private DrillDown drillDownGiven;

        private Builder() {
        }

        /** Configures what the run runs. */
        public Builder workload(Consumer<Workload.Builder> c) {
            c.accept(workload);
            return this;
        }

        /** Configures where the run runs and on which versions ({@link Targets.Builder#setBackends} is required). */
        public Builder targets(Consumer<Targets.Builder> c) {
            c.accept(targets);
            return this;
        }

        /** Configures how many runs a case takes. */
        public Builder sampling(Consumer<Sampling.Builder> c) {
            c.accept(sampling);
            return this;
        }

        /** Configures what one case may take. */
        public Builder limits(Consumer<RunLimits.Builder> c) {
            c.accept(limits);
            return this;
        }

        /** Configures what the run finds out beyond the matrix. */
        public Builder drillDown(Consumer<DrillDown.Builder> c) {
            c.accept(drillDown);
            return this;
        }

        /** The workload as a whole (replaces what {@link #workload(Consumer)} configured). */
        public Builder optWorkload(Workload w) {
            this.workloadGiven = w;
            return this;
        }

        /** The targets as a whole (replaces what {@link #targets(Consumer)} configured). */
        public Builder optTargets(Targets t) {
            this.targetsGiven = t;
            return this;
        }

        /** The sampling as a whole (replaces what {@link #sampling(Consumer)} configured). */
        public Builder optSampling(Sampling s) {
            this.samplingGiven = s;
            return this;
        }

        /** The limits as a whole (replaces what {@link #limits(Consumer)} configured). */
        public Builder optLimits(RunLimits l) {
            this.limitsGiven = l;
            return this;
        }

        /** The drill-down as a whole (replaces what {@link #drillDown(Consumer)} configured). */
        public Builder optDrillDown(DrillDown d) {
            this.drillDownGiven = d;
            return this;
        }

        /**
         * The plan.
         *
         * @throws AccelbridgeException naming the option that makes the plan impossible and the fix
         */
        public RunPlan build() {
            return new RunPlan(workloadGiven != null ? workloadGiven : workload.build(),
                    targetsGiven != null ? targetsGiven : targets.build(),
                    samplingGiven != null ? samplingGiven : sampling.build(),
                    limitsGiven != null ? limitsGiven : limits.build(),
                    drillDownGiven != null ? drillDownGiven : drillDown.build());
        }
    }
}
