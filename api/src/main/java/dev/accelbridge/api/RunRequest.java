package dev.accelbridge.api;

import dev.accelbridge.run.BrowserLanes;
import dev.accelbridge.run.ModelSet;
import dev.accelbridge.run.RunAccount;
import dev.accelbridge.run.RunListener;
import dev.accelbridge.run.RunPlan;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * One run to start on a session ({@link AccelbridgeSession#run(RunRequest)}): the plan, and what a starter other than a
 * plain program may add. Every way of starting a run (the CLI's {@code run}, {@code bisect} and {@code serve}, the
 * dashboard's child run, the JUnit 5 extension, a user's program) builds one of these; none assembles the orchestrator
 * itself.
 *
 * @param plan     what the run does
 * @param label    what this run is, recorded with its plan (a test's name); may be null
 * @param models   the models, when the starter picked them (bisection's one model); null: the plan's own
 * @param resumeOf the interrupted run this one finishes ({@code run --resume}); null: a new run
 * @param continueOf the run, finished or not, this one adds its cases to (a version bisection's later steps); null: none
 * @param lanes    where browser cases run, when the starter has its own (a page that joined {@code serve}); null: the
 *                 session's browsers, launched by the bridge
 * @param listener progress of this run; null: the session's
 * @param account  where the run's wall time is accounted, when the starter began it earlier (the CLI: at the JVM's
 *                 start) and finishes it itself (after its reports); null: the session's, from the request to the run's end
 */
public record RunRequest(RunPlan plan, String label, ModelSet models, String resumeOf, String continueOf, Supplier<BrowserLanes> lanes,
                         RunListener listener, RunAccount account) {
    public RunRequest {
        Objects.requireNonNull(plan, "plan");
    }

    /** A request for {@code plan}, everything else the session's. */
    public static RunRequest of(RunPlan plan) {
        return builder().setPlan(plan).build();
    }

    /** A builder: the plan required ({@code set*}), the rest optional ({@code opt*}). */
    public static Builder builder() {
        return new Builder();
    }

    /** Builds a {@link RunRequest}. */
    public static final class Builder {
        private RunPlan plan;
        private String label;
        private ModelSet models;
        private String resumeOf;
        private String continueOf;
        private Supplier<BrowserLanes> lanes;
        private RunListener listener;
        private RunAccount account;

        private Builder() {
        }

        /** Required: what the run does. */
        public Builder setPlan(RunPlan p) {
            this.plan = p;
            return this;
        }

        /** What the run is (a test's {@code Class#method}). */
        public Builder optLabel(String l) {
            this.label = l;
            return this;
        }

        /** The models to run instead of the plan's own. */
        public Builder optModels(ModelSet m) {
            this.models = m;
            return this;
        }

        /** Finish this interrupted run instead of beginning a new one. */
        public Builder optResumeOf(String runId) {
            this.resumeOf = runId;
            return this;
        }

        /** Add the cases to run {@code runId}, finished or not, instead of beginning a new one (null: begin one). */
        public Builder optContinueOf(String runId) {
            this.continueOf = runId;
            return this;
        }

        /** Where browser cases run instead of the session's browsers. */
        public Builder optLanes(Supplier<BrowserLanes> l) {
            this.lanes = l;
            return this;
        }

        /** Progress of this run instead of the session's listener. */
        public Builder optListener(RunListener l) {
            this.listener = l;
            return this;
        }

        /** Accounts the run's wall time in {@code a}, which the starter finishes ({@link RunRequest#account()}). */
        public Builder optAccount(RunAccount a) {
            this.account = a;
            return this;
        }

        /** The request. */
        public RunRequest build() {
            return new RunRequest(plan, label, models, resumeOf, continueOf, lanes, listener, account);
        }
    }
}
