package dev.accelbridge.reports.store;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.Dimension;
import dev.accelbridge.core.Dimensions;
import dev.accelbridge.core.Limits;
import dev.accelbridge.core.Outcome;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.store.ExportRules.Kind;
import dev.accelbridge.reports.store.ExportRules.Rule;

import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static dev.accelbridge.reports.store.ExportRules.NO_MAX;
import static dev.accelbridge.reports.store.ExportRules.array;
import static dev.accelbridge.reports.store.ExportRules.bool;
import static dev.accelbridge.reports.store.ExportRules.clip;
import static dev.accelbridge.reports.store.ExportRules.figure;
import static dev.accelbridge.reports.store.ExportRules.generic;
import static dev.accelbridge.reports.store.ExportRules.instant;
import static dev.accelbridge.reports.store.ExportRules.kind;
import static dev.accelbridge.reports.store.ExportRules.nonNegative;
import static dev.accelbridge.reports.store.ExportRules.object;
import static dev.accelbridge.reports.store.ExportRules.one;
import static dev.accelbridge.reports.store.ExportRules.stringMap;
import static dev.accelbridge.reports.store.ExportRules.text;
import static dev.accelbridge.reports.store.ExportRules.whole;

/**
 * The fields of every record of an export file, with their types and ranges, declared once as data (held by
 * {@link ExportRules} before anything of a record is converted): a whole number must be a JSON integer within its range
 * (never wrapped, rounded or read from a string), a figure a JSON number or a non-finite value's name, a flag a JSON
 * boolean, a text a JSON string of at most {@link Limits#MAX_TEXT} characters. Fields a record does not declare (derived
 * ones such as {@code acceleration}, the drill-down's) are held to the generic bounds.
 */
final class ExportSchema {
    private ExportSchema() {
    }

    static final Kind HOST = kind(Set.of("fingerprint"),
            "fingerprint", text(), "hostname", text(), "firstSeen", instant(), "lastSeen", instant());

    static final Kind RUN = kind(Set.of("runId", "startedAt", "status"),
            "runId", text(), "startedAt", instant(), "finishedAt", instant(), "status", one(new LinkedHashSet<>(List.of("running", "finished", "interrupted"))),
            "hostFingerprint", text(), "toolkitVersion", text(), "runtimeVersions", stringMap(), "plan", text(Limits.MAX_PLAN_TEXT));

    static final Kind PROBE = kind(Set.of("runId", "backend", "available"),
            "runId", text(), "backend", text(), "where", text(), "available", bool(), "evidence", text());

    static final Kind MODEL = kind(Set.of("sha256"), "sha256", text(), "ops", array(text(), Limits.MAX_ITERATIONS));

    private static final Kind PARITY = kind(Set.of(),
            "maxAbsErr", nonNegative(), "maxRelErr", nonNegative(), "cosine", figure(-2, 2), "tolerance", nonNegative(),
            "within", bool(), "against", text(), "nonFinite", whole(0, Long.MAX_VALUE), "rtol", nonNegative(),
            "budget", figure(-NO_MAX, NO_MAX), "basis", text());

    private static final Kind HOP = kind(Set.of("backend"), "backend", text(), "taken", bool(), "reason", text());

    private static final Kind DIAGNOSTIC = kind(Set.of(), "severity", text(), "code", text(), "message", text(), "action", text());

    private static final Kind PROVENANCE = kind(Set.of(),
            "host", text(), "hostFingerprint", text(), "os", text(), "browser", text(), "browserVersion", text(),
            "driver", text(), "adapter", text(), "softwareAdapter", bool(), "executionProviders", array(text(), 64),
            "runtimeVersions", stringMap(), "threads", whole(1, 1 << 16), "verified", stringMap());

    static final Kind RESULT = withCase(kind(Set.of("runId", "status"),
            "runId", text(), "startedAt", instant(), "caseKey", text(), "actual", text(), "outcome", one(names(Outcome.Kind.values())),
            "status", one(names(Status.values())), "reason", text(), "evidence", text(), "flaky", bool(),
            "attempts", whole(1, Limits.MAX_RETRIES + 1), "earlierAttempts", array(text(), Limits.MAX_RETRIES),
            "host", text(), "hostFingerprint", text(), "browser", text(), "driver", text(), "adapter", text(),
            "softwareAdapter", bool(), "acceleration", text(), "threads", whole(1, 1 << 16),
            "loadMs", nonNegative(), "firstMs", nonNegative(), "warmups", whole(0, Limits.MAX_ITERATIONS),
            "iterations", whole(0, Limits.MAX_ITERATIONS), "p50Ms", nonNegative(), "p90Ms", nonNegative(),
            "p99Ms", nonNegative(), "meanMs", nonNegative(), "stddevMs", nonNegative(), "throughputPerSec", nonNegative(),
            "samplesMs", array(nonNegative(), Limits.MAX_ITERATIONS), "samples", whole(0, Limits.MAX_ITERATIONS),
            "samplesNeeded", generic(), "p50CiMs", array(nonNegative(), 2), "timerResolutionMs", nonNegative(),
            "latencyFloorMs", nonNegative(), "readbackMs", nonNegative(), "gpuMs", nonNegative(), "steady", bool(),
            "trend", figure(-NO_MAX, NO_MAX), "loadBefore", nonNegative(), "loadAfter", nonNegative(), "busy", bool(), "warmupMs", nonNegative(), "settled", bool(), "floorStopped", bool(),
            "verdictWindow", bool(),
            "maxAbsErr", nonNegative(), "maxRelErr", nonNegative(), "cosine", figure(-2, 2), "tolerance", nonNegative(),
            "within", bool(), "parityAgainst", text(), "nonFinite", whole(0, Long.MAX_VALUE), "rtol", nonNegative(),
            "toleranceBudget", figure(-NO_MAX, NO_MAX), "toleranceBasis", text(), "variantParity", object(PARITY),
            "itemsPerSec", nonNegative(), "memory", (Rule) v -> object(MemoryForm.SCHEMA).problem(v), "rssPeakBytes", whole(0, Long.MAX_VALUE),
            "fallbackPath", array(object(HOP), 16), "warnings", array(text(), 1024),
            "diagnostics", array(object(DIAGNOSTIC), 1024), "provenance", object(PROVENANCE),
            "bisection", generic(), "profile", generic(), "coldStart", generic(), "recreate", generic(), "placement", generic(), "computed", generic(),
            // memory's and decoding's kinds are read when a record is checked, not when this class is made: MemoryForm's or
            // DecodingForm's own initialisation may be what made this one, its SCHEMA still null then (an export whose first
            // result was a generation failed so; and one whose first form read was a result's memory)
            "decoding", (Rule) v -> object(DecodingForm.SCHEMA).problem(v), "readout", generic(), "figuresOf", text(),
            "defect", bool(), "fidelity", generic(), "load", generic()));

    /** {@code k} with a field per {@link Dimensions#all()}, required where a case cannot do without it. */
    private static Kind withCase(Kind k) {
        Map<String, Rule> fields = new LinkedHashMap<>(k.fields());
        Set<String> required = new LinkedHashSet<>(k.required());
        for (Dimension<?> d : Dimensions.all()) {
            fields.put(d.name(), dimension(d));
            try {
                d.parse(null);
            } catch (AccelbridgeException e) {
                required.add(d.name());
            }
        }
        return new Kind(fields, required);
    }

    /** A dimension's value: its JSON type, and one of the values its descriptor reads. */
    static Rule dimension(Dimension<?> d) {
        Rule type = d.kind() == Dimension.Kind.WHOLE ? whole(d.min(), d.max()) : text();
        return v -> {
            String p = type.problem(v);
            if (p != null) {
                return p;
            }
            try {
                d.parse(v.asText());
                return null;
            } catch (AccelbridgeException e) {
                return "'" + clip(v.asText()) + "' is not a " + d.label() + " (" + e.fix() + ")";
            }
        };
    }

    /** The names of an enum's values, the form its field takes. */
    private static Set<String> names(Enum<?>[] values) {
        Set<String> s = new LinkedHashSet<>();
        for (Enum<?> x : values) {
            s.add(x.name());
        }
        return s;
    }
}
