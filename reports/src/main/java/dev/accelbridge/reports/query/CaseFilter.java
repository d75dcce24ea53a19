package dev.accelbridge.reports.query;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.Dimension;
import dev.accelbridge.core.Dimensions;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.ReportsException;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * A filter over results by the matrix's dimensions, the same for the dashboard's page and {@code GET /api/cases}:
 * every field is a set of accepted values (empty: any), and a result passes when it matches every field. The
 * dimensions' fields come from {@link Dimensions#all()} (a filter is a dimension's name, or an older alias such as
 * {@code family}, {@code backend}, {@code browser}, {@code batch}); hosts, statuses and the time window are the
 * outcome's.
 *
 * @param dimensions the accepted values of each filtered dimension, written as the dimension writes them
 * @param hosts      host names or fingerprints
 * @param statuses   statuses
 * @param from       earliest start (inclusive), or null
 * @param to         latest start (exclusive; a date alone means the end of that day), or null
 */
@PublicApi
public record CaseFilter(Map<Dimension<?>, Set<String>> dimensions, Set<String> hosts, Set<Status> statuses,
                         Instant from, Instant to) {
    /** The query parameter names, in the order the page shows them. */
    public static final List<String> FIELDS = fields();

    /** Accepts everything. */
    public static final CaseFilter ALL = new CaseFilter(Map.of(), Set.of(), Set.of(), null, null);

    public CaseFilter {
        Map<Dimension<?>, Set<String>> copy = new LinkedHashMap<>();
        dimensions.forEach((d, vs) -> {
            if (!vs.isEmpty()) {
                copy.put(d, Set.copyOf(vs));
            }
        });
        dimensions = java.util.Collections.unmodifiableMap(copy);
        hosts = Set.copyOf(hosts);
        statuses = Set.copyOf(statuses);
    }

    private static List<String> fields() {
        List<String> f = new ArrayList<>(Dimensions.all().stream().map(Dimension::name).toList());
        f.addAll(List.of("host", "status", "from", "to"));
        return List.copyOf(f);
    }

    /**
     * Reads the filter from query parameters ({@link #FIELDS}, or a dimension's alias); a parameter may repeat or hold a
     * comma-separated list.
     *
     * @throws ReportsException naming the parameter and the accepted values when a value is not understood
     */
    public static CaseFilter parse(Map<String, List<String>> params) {
        Map<Dimension<?>, Set<String>> dims = new LinkedHashMap<>();
        params.forEach((name, raw) -> Dimensions.named(name).ifPresent(d -> dims.computeIfAbsent(d, k -> new LinkedHashSet<>())
                .addAll(values(Map.of(name, raw), name, d::canonical))));
        return new CaseFilter(dims, values(params, "host", v -> v), values(params, "status", CaseFilter::status),
                instant(params, "from", false), instant(params, "to", true));
    }

    /** True when {@code r} passes every field. */
    public boolean test(RunResult r) {
        var id = r.id();
        for (var e : dimensions.entrySet()) {
            String v = e.getKey().text(id); // null: not known (a version older records did not keep), which no filter names
            if (v == null || !e.getValue().contains(v)) {
                return false;
            }
        }
        return (hosts.isEmpty() || hosts.contains(hostName(r)) || hosts.contains(r.hostFingerprint()))
                && (statuses.isEmpty() || statuses.contains(r.status()))
                && (from == null || (r.startedAt() != null && !r.startedAt().isBefore(from)))
                && (to == null || (r.startedAt() != null && r.startedAt().isBefore(to)));
    }

    /** The results that pass, in their order. */
    public List<RunResult> apply(List<RunResult> results) {
        return results.stream().filter(this::test).toList();
    }

    /** The host name a result is shown under ("?" when its provenance has none). */
    public static String hostName(RunResult r) {
        return r.provenance() == null || r.provenance().host() == null ? "?" : r.provenance().host();
    }

    private static <T> Set<T> values(Map<String, List<String>> params, String name, Function<String, T> parse) {
        Set<T> out = new LinkedHashSet<>();
        for (String raw : params.getOrDefault(name, List.of())) {
            for (String v : raw.split(",")) {
                String t = v.trim();
                if (t.isEmpty()) {
                    continue;
                }
                try {
                    out.add(parse.apply(t));
                } catch (RuntimeException e) {
                    throw new ReportsException("Filter " + name + "=" + t + " is not understood: " + e.getMessage(),
                            "give " + name + " one of the values the dashboard's filter lists");
                }
            }
        }
        return out;
    }

    private static Status status(String v) {
        String s = v.toUpperCase(java.util.Locale.ROOT).replace('-', '_');
        try {
            return Status.valueOf(s);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("status is one of " + Arrays.stream(Status.values()).map(Enum::name).toList());
        }
    }

    private static Instant instant(Map<String, List<String>> params, String name, boolean endOfDay) {
        List<String> vs = new ArrayList<>(params.getOrDefault(name, List.of()));
        vs.removeIf(String::isBlank);
        if (vs.isEmpty()) {
            return null;
        }
        String v = vs.get(vs.size() - 1).trim();
        try {
            if (v.length() == 10) {
                LocalDate d = LocalDate.parse(v);
                return (endOfDay ? d.plusDays(1) : d).atStartOfDay(ZoneOffset.UTC).toInstant();
            }
            return Instant.parse(v);
        } catch (DateTimeParseException e) {
            throw new ReportsException("Filter " + name + "=" + v + " is not a date", "give a date (2026-11-22) or an ISO instant (2026-11-22T10:00:00Z)");
        }
    }
}
