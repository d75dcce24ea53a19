package dev.accelbridge.reports.store;

import com.fasterxml.jackson.databind.JsonNode;
import dev.accelbridge.core.Limits;

import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Set;

/**
 * How an export file's JSON value is held to a rule: the rules themselves (a text within bounds, a whole number within
 * a range, a finite figure or one of the names {@link ResultJson#num} writes for non-finite values, an instant, an array,
 * a nested object of a {@link Kind}), the check of a record against its kind, and the generic bounds for fields no kind
 * declares (strings at most {@link Limits#MAX_TEXT}, arrays at most {@link Limits#MAX_ITERATIONS} long, numbers finite).
 * Which fields the export's records have is {@link ExportSchema}'s.
 */
final class ExportRules {
    /** One field's rule: null when the value is acceptable, else what is wrong with it ("is not a whole number"). */
    @FunctionalInterface
    interface Rule {
        String problem(JsonNode v);
    }

    /** A record kind: its fields' rules and which of them must be present and non-null. */
    record Kind(Map<String, Rule> fields, Set<String> required) {
    }

    private static final Set<String> NON_FINITE = Set.of("NaN", "Infinity", "-Infinity");
    /** No upper bound, for a figure that may be any finite number. */
    static final double NO_MAX = Double.POSITIVE_INFINITY;

    private ExportRules() {
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

    static String type(JsonNode v) {
        return switch (v.getNodeType()) {
            case STRING -> "the string '" + clip(v.textValue()) + "'";
            case NUMBER -> "the number " + v.asText();
            case BOOLEAN -> "the boolean " + v.asText();
            case ARRAY -> "an array";
            case OBJECT -> "an object";
            default -> v.getNodeType().name().toLowerCase(Locale.ROOT);
        };
    }

    /** A value as it may stand in a one-line message: at most 40 characters, escaped by the renderer that shows it. */
    static String clip(String s) {
        return s.length() <= 40 ? s : s.substring(0, 40) + "…";
    }
}
