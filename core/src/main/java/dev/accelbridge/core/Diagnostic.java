package dev.accelbridge.core;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * A problem a run saw, with how bad it is and what to do about it. Derived from a {@link RunResult} by one rule
 * set ({@link #of(RunResult)}), so the JSON, the reports and the terminal say the same thing.
 *
 * @param severity how bad
 * @param code     a stable machine-readable code ({@code wrong-output}, {@code fell-back}, ...)
 * @param message  what happened, naming the backend and the evidence
 * @param action   the recommended action
 */
public record Diagnostic(Severity severity, String code, String message, String action) {

    /**
     * How the warning of a page that is not cross-origin isolated begins (its wasm runs one thread there): such a warning
     * is its own finding, not a runtime's.
     */
    public static final String NOT_ISOLATED = "the page is not cross-origin isolated";

    /** The diagnostics of one result, most severe first. */
    public static List<Diagnostic> of(RunResult r) {
        String req = r.requested().id();
        List<Diagnostic> out = new ArrayList<>();
        // each check is independent; the order they are added in is the order among equals after the (stable) sort
        addIfAny(out, ofStatus(r, req));
        addIfAny(out, flaky(r, req));
        addIfAny(out, noReference(r, req));
        out.addAll(ofWarnings(r, req));
        addIfAny(out, placedOnCpu(r, req));
        addIfAny(out, computedInFloat32(r, req));
        Acceleration acc = Acceleration.of(r);
        addIfAny(out, softwareAdapter(r, acc));
        addIfAny(out, deviceUnverified(r, acc));
        SampleQuality q = r.timings().map(tm -> tm.quality()).orElse(SampleQuality.UNKNOWN);
        addIfAny(out, latencyFloor(r, q));
        addIfAny(out, notSteady(r, q));
        addIfAny(out, fewSamples(r));
        addIfAny(out, memoryUnknown(r));
        out.sort(Comparator.comparing(Diagnostic::severity));
        return List.copyOf(out);
    }

    private static void addIfAny(List<Diagnostic> out, Diagnostic d) {
        if (d != null) {
            out.add(d);
        }
    }

    /** What the status itself says is wrong (nothing when it passed). */
    private static Diagnostic ofStatus(RunResult r, String req) {
        String reason = r.reason() == null ? "" : r.reason();
        return switch (r.status()) {
            case WRONG_OUTPUT -> new Diagnostic(Severity.CRITICAL, "wrong-output",
                    req + " ran but its output is outside tolerance: "
                            + r.parity().map(Parity::describe).orElse(reason),
                    "do not ship this model on " + (r.actual().map(BackendId::id).orElse(req))
                            + " as is; compare per node against the reference and report the first diverging op upstream");
            case FAILED -> new Diagnostic(Severity.ERROR, "failed", req + " failed: " + reason,
                    "read the error; rerun with --verbose for the stack trace, and with a longer --timeout if it timed out");
            case UNSUPPORTED -> new Diagnostic(Severity.WARNING, "unsupported",
                    req + " is present but cannot run this model: " + reason,
                    "use another backend for this model, or change the model (opset, ops, data types) to what " + req + " supports");
            case UNAVAILABLE -> new Diagnostic(Severity.WARNING, "unavailable",
                    req + " is not present here: " + reason,
                    "run on a host or browser that has " + req + " (see docs/native-gpu.md and docs/limits.md)");
            case FELL_BACK -> new Diagnostic(Severity.WARNING, "fell-back",
                    req + " did not run the case; " + (r.actual().map(BackendId::id).orElse("nothing")) + " did: " + reason,
                    "see each hop's reason in the fallback path; the figures are " + (r.actual().map(BackendId::id).orElse("none")) + "'s");
            case PASSED -> null;
        };
    }

    /** A status reached only on a later attempt: the earlier ones' failures are the finding. */
    private static Diagnostic flaky(RunResult r, String req) {
        if (!r.flaky()) {
            return null;
        }
        return new Diagnostic(Severity.WARNING, "flaky", req + " " + r.status() + " on attempt " + r.attempts().count()
                + " after " + String.join("; ", r.attempts().earlier()),
                "do not trust a single run of this case: find what made the earlier attempt fail (a crash, a hang, a lost device)");
    }

    /** A case that ran with nothing to judge its outputs by (native CPU is the reference itself). */
    private static Diagnostic noReference(RunResult r, String req) {
        if (!(r.status().executed() && r.parity().isEmpty() && !r.id().isNativeCpu())) {
            return null;
        }
        return new Diagnostic(Severity.WARNING, "no-reference", "no reference output to check " + req + " against",
                "make sure the native CPU run of this model succeeds (it is every case's reference)");
    }

    /** One diagnostic per warning the runtime gave, in its order; the page's isolation warning is a finding of its own. */
    private static List<Diagnostic> ofWarnings(RunResult r, String req) {
        List<Diagnostic> out = new ArrayList<>();
        for (String w : r.warnings()) {
            if (w.startsWith(NOT_ISOLATED)) {
                out.add(new Diagnostic(Severity.WARNING, "not-isolated", w, "serve the bridge over HTTPS (run does off loopback "
                        + "unless --no-tls) so the page is a secure context with its cross-origin isolation headers"));
                continue;
            }
            // ORT prefixes its log lines with a wall-clock time: drop it, so the same warning reads the same in every run
            String text = w.replaceFirst("^\\d{4}-\\d{2}-\\d{2} [\\d:.]+ ", "");
            // found when tried: every warning got the op-support action, "webgpu adapter missing" and an observed row's
            // "its verdict covers 4 of its 8 runs" among them; it belongs to a warning about where nodes were placed
            out.add(new Diagnostic(Severity.WARNING, "runtime-warning", text, PLACEMENT.matcher(text).find()
                    ? "nodes off the requested provider add copies and cost speed: check the op support of " + req
                    : "read it with this row's verdict and figures: it qualifies what they say"));
        }
        return out;
    }

    /** A warning about where ONNX Runtime placed nodes (its "not assigned to the preferred execution providers" log line). */
    private static final java.util.regex.Pattern PLACEMENT = java.util.regex.Pattern.compile(
            "(?i)(nodes?\\b.*\\b(assigned|placed)|execution providers?\\b.*\\b(assigned|placed)|fall(s|en)? ?back to (the )?cpu)");

    /** A browser case with nodes on ORT's CPU EP: its figures are partly the CPU's. */
    private static Diagnostic placedOnCpu(RunResult r, String req) {
        Placement placed = r.analysis() == null ? null : r.analysis().placement();
        if (!(r.status().executed() && placed != null && !placed.onRequested() && r.lane().side() == LaneSide.BROWSER)) {
            return null;
        }
        return new Diagnostic(Severity.WARNING, "placed-on-cpu", (r.actual().map(BackendId::id).orElse(req))
                + " ran the case with some nodes on ONNX Runtime's CPU EP" + (placed.offNodes().isEmpty() ? " (which nodes: unknown)"
                : " (" + placed.offByType() + ")") + ": " + placed.basis(),
                "its figures are partly the CPU's: see which ops fall back with the op suite (accelbridge ops)");
    }

    /** A half-precision variant whose runtime computed part of it in float32: its verdict is this backend's, not float16's. */
    private static Diagnostic computedInFloat32(RunResult r, String req) {
        ComputedPrecision c = r.analysis() == null ? null : r.analysis().computed();
        if (!(r.status().executed() && c != null && c.inFloat32())) {
            return null;
        }
        return new Diagnostic(Severity.INFO, "computed-in-float32", (r.actual().map(BackendId::id).orElse(req)) + " " + c.describe(),
                "judge float16 arithmetic where it is computed in float16 (a GPU whose adapter has shader-f16): this verdict "
                        + "holds for this backend only");
    }

    private static Diagnostic softwareAdapter(RunResult r, Acceleration acc) {
        if (!(r.status().executed() && acc == Acceleration.SOFTWARE_ADAPTER)) {
            return null;
        }
        return new Diagnostic(Severity.INFO, "software-adapter",
                "WebGPU ran on a software adapter (" + (r.provenance() == null || r.provenance().adapter() == null
                        ? "unknown" : r.provenance().adapter()) + "): correct, but its speed is the CPU's",
                "run on a machine with a hardware GPU adapter for GPU figures");
    }

    private static Diagnostic deviceUnverified(RunResult r, Acceleration acc) {
        if (!r.status().executed()) {
            return null;
        }
        if (acc == Acceleration.BROWSER_CPU && r.outcome() instanceof Outcome.Ran ran) {
            return new Diagnostic(Severity.WARNING, "device-is-cpu", Acceleration.evidence(r),
                    "its figures are the CPU's: run it where the browser has a WebNN " + ran.backend().webnnDeviceType()
                    + " backend (Chromium on Windows, macOS or ChromeOS) for " + ran.backend().webnnDeviceType() + " figures");
        }
        if (acc != Acceleration.UNVERIFIED_DEVICE) {
            return null;
        }
        return new Diagnostic(Severity.INFO, "device-unverified", Acceleration.evidence(r),
                "treat its speed as unverified; compare with webnn-cpu and wasm on the same host");
    }

    /** Samples that measure the timer's step or an empty readback's floor rather than the model. */
    private static Diagnostic latencyFloor(RunResult r, SampleQuality q) {
        if (!(r.status().executed() && q.floored())) {
            return null;
        }
        return new Diagnostic(Severity.WARNING, "latency-floor", q.timerFloor()
                ? String.format(java.util.Locale.ROOT, "the p50 is under %d ticks of the timer (%.3f ms): the figure is the "
                + "timer's step, not the model's time", SampleStats.TIMER_TICKS, q.timerResolutionMs())
                : String.format(java.util.Locale.ROOT, "the samples sit on a latency floor: an empty readback takes %.1f ms "
                + "here (polled); compute time %s", q.latencyFloorMs(), Double.isFinite(q.gpuMs())
                ? String.format(java.util.Locale.ROOT, "by the GPU's timestamps: %.2f ms", q.gpuMs()) : "unknown"),
                "do not rank or compare this figure; use gpuMs where the device has timestamp-query, or another browser");
    }

    /** A warm-up that never settled, or timed samples that drift. */
    private static Diagnostic notSteady(RunResult r, SampleQuality q) {
        if (!(r.status().executed() && Boolean.FALSE.equals(q.steady()))) {
            return null;
        }
        boolean unsettled = Boolean.FALSE.equals(q.settled());
        return new Diagnostic(Severity.INFO, "not-steady", unsettled ? String.format(java.util.Locale.ROOT,
                "the warm-up did not settle within %d s: its last block of runs was %+.0f %% against the one before",
                Settling.CAP.toSeconds(), q.trend() * 100) : String.format(java.util.Locale.ROOT,
                "the timed samples drift: %+.0f %% from their first half to their second", q.trend() * 100),
                unsettled ? "the engine was still getting faster; run the case alone, or with fewer cases beside it, to see its "
                + "settled figure" : "add --warmups, or raise --min-duration, so the case reaches steady state before it is timed");
    }

    private static Diagnostic fewSamples(RunResult r) {
        int n = r.timings().map(Timings::iterations).orElse(0);
        if (!(r.status().executed() && n > 0 && !SampleStats.supports(n, 0.5))) {
            return null;
        }
        return new Diagnostic(Severity.INFO, "few-samples", n + " timed samples give the median no "
                + "interval (" + SampleStats.samplesNeeded(0.5) + " needed)", "raise --iterations or --min-duration");
    }

    private static Diagnostic memoryUnknown(RunResult r) {
        if (!(r.status().executed() && r.memory().rssPeak() < 0)) {
            return null;
        }
        return new Diagnostic(Severity.INFO, "memory-unknown", "memory was not measurable for this case",
                "launch the browser through Accelbridge (not by hand) to record its process tree's memory");
    }
}
