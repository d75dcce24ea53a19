package dev.accelbridge.api;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.Diagnostic;
import dev.accelbridge.core.FallbackHop;
import dev.accelbridge.core.OrtWebEngine;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.core.Timings;
import dev.accelbridge.reports.store.ResultJson;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * One case of a session's run, typed: the stored {@link RunResult} (status, reason, timings, parity, provenance, fallback
 * path, diagnostics) and the native CPU result of the same model, inputs, precision and batch in the same run, which
 * {@link #timesNative()} compares with.
 *
 * @param result    the case's result, as stored
 * @param nativeCpu the native CPU run of the same inputs in the same run; empty when cpu was not part of the plan
 */
public record CaseResult(RunResult result, Optional<RunResult> nativeCpu) {
    public CaseResult {
        java.util.Objects.requireNonNull(result, "result");
        nativeCpu = nativeCpu == null ? Optional.empty() : nativeCpu;
    }

    /** The case's identity: model, inputs, shapes, precision, batch, requested backend, lane. */
    public CaseId id() {
        return result.id();
    }

    /** The backend asked for. */
    public BackendId requested() {
        return result.id().requested();
    }

    /** The backend that ran it; empty when nothing ran. */
    public Optional<BackendId> actual() {
        return result.actual();
    }

    /** The status ({@code PASSED}, {@code FELL_BACK}, {@code WRONG_OUTPUT}, {@code FAILED}, {@code UNSUPPORTED}, {@code UNAVAILABLE}). */
    public Status status() {
        return result.status();
    }

    /** Why: the error, the probe's evidence, the fallback's reason; empty for a plain pass. */
    public Optional<String> reason() {
        return Optional.ofNullable(result.reason());
    }

    /** The timings; empty when nothing executed. */
    public Optional<Timings> timings() {
        return result.timings();
    }

    /** The outputs' distance from the reference; empty when nothing executed or for the reference itself. */
    public Optional<Parity> parity() {
        return result.parity();
    }

    /** Host, browser build, driver, adapter (a software adapter is labelled), execution providers, versions. */
    public Provenance provenance() {
        return result.provenance();
    }

    /** What the result tells, most severe first. */
    public List<Diagnostic> diagnostics() {
        return result.diagnostics();
    }

    /** Every hop considered, in order, with its reason. */
    public List<FallbackHop> fallbackPath() {
        return result.fallbackPath();
    }

    /** True when it ran on a later hop of the requested backend's chain. */
    public boolean fellBack() {
        return result.ranElsewhere();
    }

    /** The median timed iteration, in ms; empty when nothing executed. */
    public OptionalDouble p50Ms() {
        return result.timings().map(t -> OptionalDouble.of(t.p50Ms())).orElse(OptionalDouble.empty());
    }

    /** This case's p50 over the native CPU run's p50 of the same inputs (1 for the cpu case itself); empty when either did not run. */
    public OptionalDouble timesNative() {
        OptionalDouble mine = p50Ms();
        OptionalDouble base = nativeCpu.flatMap(RunResult::timings).map(t -> OptionalDouble.of(t.p50Ms()))
                .orElse(OptionalDouble.empty());
        return mine.isPresent() && base.isPresent() && base.getAsDouble() > 0
                ? OptionalDouble.of(mine.getAsDouble() / base.getAsDouble()) : OptionalDouble.empty();
    }

    /**
     * A short name: {@code webgpu [chromium 140]}, {@code webnn-gpu → wasm [chromium 140]} when it fell back,
     * {@code cpu [native]}; what a test invocation is called.
     */
    public String label() {
        String backends = fellBack() ? requested().id() + " → " + result.actual().orElseThrow().id() : requested().id();
        Provenance p = result.provenance();
        String where = switch (id().lane().side()) {
            case NATIVE -> "native";
            case BROWSER -> (p != null && p.browser() != null ? p.browser() : id().lane().id()) + majorVersion(p)
                    + OrtWebEngine.of(id().lane()).filter(OrtWebEngine::isNativeEp).map(e -> " " + e.id()).orElse("");
        };
        return backends + " [" + where + "]";
    }

    private static String majorVersion(Provenance p) {
        if (p == null || p.browserVersion() == null || p.browserVersion().isBlank()) {
            return "";
        }
        String v = p.browserVersion();
        int dot = v.indexOf('.');
        return " " + (dot > 0 ? v.substring(0, dot) : v);
    }

    /**
     * One line: status, where it ran, p50 and its ratio to native CPU, parity, and the reason when there is one, e.g.
     * {@code PASSED on wasm: p50 1.24 ms (1.9× native cpu), max abs err 2.1e-06 ... (tolerance wasm: abs 1e-4 ...)}.
     */
    public String summary() {
        StringBuilder b = new StringBuilder(status().name());
        actual().ifPresent(a -> b.append(" on ").append(a.id()));
        p50Ms().ifPresent(p -> b.append(String.format(Locale.ROOT, ": p50 %.3g ms", p)));
        timesNative().ifPresent(x -> b.append(String.format(Locale.ROOT, " (%.2f× native cpu)", x)));
        parity().ifPresent(p -> b.append(", ").append(p.describe()));
        reason().ifPresent(r -> b.append(" — ").append(r));
        return b.toString();
    }

    /** The result's one JSON form, as {@code run --json} and the dashboard's API give it. */
    public String toJson() {
        return ResultJson.result(result, true).toString();
    }

    @Override
    public String toString() {
        return label() + ": " + summary();
    }
}
