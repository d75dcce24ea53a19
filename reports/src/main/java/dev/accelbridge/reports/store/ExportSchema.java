package dev.accelbridge.reports.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.accelbridge.core.Dimension;
import dev.accelbridge.core.Dimensions;
import dev.accelbridge.core.Limits;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The types and ranges of every field of an export file's records, declared once as data, and the check that holds
 * a record to them before anything of it is converted: a whole number must be a JSON integer within its range (never
 * wrapped, rounded or read from a string), a figure a JSON number or one of the names {@link ResultJson#num} writes
 * for non-finite values, a flag a JSON boolean, a text a JSON string of at most {@link Limits#MAX_TEXT} characters.
 * Fields a record does not declare (derived ones such as {@code acceleration}, the drill-down's) are held to the
 * generic bounds: strings at most {@link Limits#MAX_TEXT}, arrays at most {@link Limits#MAX_ITERATIONS} long, numbers
 * finite.
 */
final class ExportSchema {
    /** One field's rule: null when the value is acceptable, else what is wrong with it ("is not a whole number"). */
    @FunctionalInterface
    interface Rule {
        String problem(JsonNode v);
    }

    /** A record kind: its fields' rules and which of them must be present and non-null. */
    record Kind(Map<String, Rule> fields, Set<String> required) {
    }

    private static final Set<String> NON_FINITE = Set.of("NaN", "Infinity", "-Infinity");
    private static final double NO_MAX = Double.POSITIVE_INFINITY;

    private ExportSchema() {
    }

    static Rule text(int max) {
        return v -> !v.isTextual() ? "is " + type(v) + ", not a string"
                : v.textValue().length() > max ? "is " + v.textValue().length() + " characters long, more than the " + max + " allowed"
                : null;
    }

    static Rule text() {
        return text(Limits.MAX_TEXT);
    }

    static Rule instant() {
        return v -> {
            if (!v.isTextual()) {
                return "is " + type(v) + ", not an ISO-8601 instant";
            }
            try {
                Instant.parse(v.textValue());
                return null;
            } catch (DateTimeParseException e) {
                return "'" + clip(v.textValue()) + "' is not an ISO-8601 instant";
            }
        };
    }

    /** A JSON integer from {@code min} to {@code max}: 1.5, 1e23, "one" and 2^40 for an int are all refused. */
    static Rule whole(long min, long max) {
        return v -> {
            if (!v.isIntegralNumber()) {
                return v.isNumber() ? "is " + v.asText() + ", not a whole number" : "is " + type(v) + ", not a whole number";
            }
            if (!v.canConvertToLong() || v.longValue() < min || v.longValue() > max) {
                return "is " + v.asText() + ", outside " + min + ".." + max;
            }
            return null;
        };
    }

    /** A finite JSON number from {@code min} to {@code max}, or one of "NaN", "Infinity", "-Infinity". */
    static Rule figure(double min, double max) {
        return v -> {
            if (v.isTextual() && NON_FINITE.contains(v.textValue())) {
                return null;
            }
            if (!v.isNumber()) {
                return "is " + type(v) + ", not a number";
            }
            double d = v.doubleValue();
            if (!Double.isFinite(d)) {
                return "is " + v.asText() + ", beyond what a double holds";
            }
            return d < min || d > max ? "is " + v.asText() + ", outside " + min + ".." + (max == NO_MAX ? "∞" : max) : null;
        };
    }

    /** A duration or rate: never negative. */
    static Rule nonNegative() {
        return figure(0, NO_MAX);
    }

    static Rule bool() {
        return v -> v.isBoolean() ? null : "is " + type(v) + ", not true or false";
    }

    static Rule one(Set<String> values) {
        return v -> !v.isTextual() ? "is " + type(v) + ", not a string"
                : values.contains(v.textValue()) ? null : "'" + clip(v.textValue()) + "' is not one of " + values;
    }

    /** An array of at most {@code max} items, each held to {@code each}. */
    static Rule array(Rule each, int max) {
        return v -> {
            if (!v.isArray()) {
                return "is " + type(v) + ", not an array";
            }
            if (v.size() > max) {
                return "has " + v.size() + " items, more than the " + max + " allowed";
            }
            for (int i = 0; i < v.size(); i++) {
                String p = each.problem(v.get(i));
                if (p != null) {
                    return "[" + i + "]" + join(p);
                }
            }
            return null;
        };
    }

    /** A JSON object whose every value is a string (runtime versions, attributes). */
    static Rule stringMap() {
        return v -> {
            if (!v.isObject()) {
                return "is " + type(v) + ", not an object";
            }
            var it = v.fields();
            while (it.hasNext()) {
                var e = it.next();
                String p = text().problem(e.getValue());
                if (p != null || e.getKey().length() > Limits.MAX_TEXT) {
                    return "." + clip(e.getKey()) + " " + (p == null ? "has too long a name" : p);
                }
            }
            return null;
        };
    }

    /** A nested object held to a kind (null allowed unless required there). */
    static Rule object(Kind kind) {
        return v -> {
            if (!v.isObject()) {
                return "is " + type(v) + ", not an object";
            }
            String p = problem(v, kind);
            return p == null ? null : "." + p;
        };
    }

    static Kind kind(Set<String> required, Object... nameRule) {
        Map<String, Rule> m = new LinkedHashMap<>();
        for (int i = 0; i < nameRule.length; i += 2) {
            m.put((String) nameRule[i], (Rule) nameRule[i + 1]);
        }
        return new Kind(m, required);
    }

    static final Kind HOST = kind(Set.of("fingerprint"),
            "fingerprint", text(), "hostname", text(), "firstSeen", instant(), "lastSeen", instant());

    static final Kind RUN = kind(Set.of("runId", "startedAt", "status"),
            "runId", text(), "startedAt", instant(), "finishedAt", instant(), "status", one(new java.util.LinkedHashSet<>(List.of("running", "finished", "interrupted"))),
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
            "runId", text(), "startedAt", instant(), "caseKey", text(), "actual", text(),
            "status", one(statuses()), "reason", text(), "evidence", text(), "flaky", bool(),
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
            "bisection", generic(), "profile", generic(), "coldStart", generic(), "recreate", generic(),
            // memory's and decoding's kinds are read when a record is checked, not when this class is made: MemoryForm's or
            // DecodingForm's own initialisation may be what made this one, its SCHEMA still null then (an export whose first
            // result was a generation failed so; and one whose first form read was a result's memory)
            "decoding", (Rule) v -> object(DecodingForm.SCHEMA).problem(v), "readout", generic(), "figuresOf", text(),
            "defect", bool(), "fidelity", generic()));

    /** {@code k} with a field per {@link Dimensions#all()}, required where a case cannot do without it. */
    private static Kind withCase(Kind k) {
        Map<String, Rule> fields = new LinkedHashMap<>(k.fields());
        Set<String> required = new java.util.LinkedHashSet<>(k.required());
        for (Dimension<?> d : Dimensions.all()) {
            fields.put(d.name(), dimension(d));
            try {
                d.parse(null);
            } catch (dev.accelbridge.core.AccelbridgeException e) {
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
            } catch (dev.accelbridge.core.AccelbridgeException e) {
                return "'" + clip(v.asText()) + "' is not a " + d.label() + " (" + e.fix() + ")";
            }
        };
    }

    private static Set<String> statuses() {
        Set<String> s = new java.util.LinkedHashSet<>();
        for (dev.accelbridge.core.Status x : dev.accelbridge.core.Status.values()) {
            s.add(x.name());
        }
        return s;
    }

    /** Any JSON object held to the generic bounds only. */
    static Rule generic() {
        return v -> v.isObject() ? bounded(v, 0) : "is " + type(v) + ", not an object";
    }

    /**
     * What is wrong with {@code record} held to {@code kind}: the first field that breaks its rule, named by its path
     * ({@code "variantParity.maxAbsErr is -1.0, outside 0.0..∞"}); null when nothing is. A field present as JSON null
     * counts as absent.
     */
    static String problem(JsonNode record, Kind kind) {
        if (!record.isObject()) {
            return "is " + type(record) + ", not an object";
        }
        for (String f : kind.required()) {
            if (!record.hasNonNull(f)) {
                return f + " is missing";
            }
        }
        var it = record.fields();
        while (it.hasNext()) {
            var e = it.next();
            if (e.getValue().isNull()) {
                continue;
            }
            Rule r = kind.fields().get(e.getKey());
            String p = r == null ? bounded(e.getValue(), 0) : r.problem(e.getValue());
            if (p != null) {
                return clip(e.getKey()) + join(p);
            }
        }
        return null;
    }

    /** The generic bounds, for fields no kind declares. */
    private static String bounded(JsonNode v, int depth) {
        if (depth > 32) {
            return "nests deeper than 32 levels";
        }
        if (v.isTextual()) {
            return text().problem(v);
        }
        if (v.isNumber() && !Double.isFinite(v.doubleValue())) {
            return "is " + v.asText() + ", beyond what a double holds";
        }
        if (v.isArray() && v.size() > Limits.MAX_ITERATIONS) {
            return "has " + v.size() + " items, more than the " + Limits.MAX_ITERATIONS + " allowed";
        }
        if (v.isContainerNode()) {
            int i = 0;
            var it = v.isObject() ? v.fields() : null;
            if (it != null) {
                while (it.hasNext()) {
                    var e = it.next();
                    String p = bounded(e.getValue(), depth + 1);
                    if (p != null) {
                        return "." + clip(e.getKey()) + join(p);
                    }
                }
            } else {
                for (JsonNode x : v) {
                    String p = bounded(x, depth + 1);
                    if (p != null) {
                        return "[" + i + "]" + join(p);
                    }
                    i++;
                }
            }
        }
        return null;
    }

    /** A nested path ("[2]", ".x") attaches to its parent's name; a phrase follows it after a space. */
    private static String join(String p) {
        return p.startsWith("[") || p.startsWith(".") ? p : " " + p;
    }

    private static String type(JsonNode v) {
        return switch (v.getNodeType()) {
            case STRING -> "the string '" + clip(v.textValue()) + "'";
            case NUMBER -> "the number " + v.asText();
            case BOOLEAN -> "the boolean " + v.asText();
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            default -> v.getNodeType().name().toLowerCase(java.util.Locale.ROOT);
        };
    }

    /** A value as it may stand in a one-line message: at most 40 characters, escaped by the renderer that shows it. */
    private static String clip(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "…";
    }
}
