package dev.accelbridge.reports.query;

import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.RunResult;
import dev.accelbridge.core.Status;
import dev.accelbridge.reports.ReportsException;

import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneOffset;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * A filter over results by the matrix's dimensions, the same for the dashboard's page and {@code GET /api/cases}:
 * every field is a set of accepted values (empty: any), and a result passes when it matches every field.
 *
 * @param families   model families ({@code text}, {@code vision}, {@code audio})
 * @param models     model names
 * @param backends   requested backends ({@code webgpu}, {@code cpu})
 * @param browsers   lanes: a browser id ({@code chromium}, {@code chromium-shell}, {@code firefox}) or {@code native}
 * @param hosts      host names or fingerprints
 * @param precisions precisions ({@code fp32}, {@code fp16}, {@code int8})
 * @param batches    batch sizes
 * @param statuses   statuses
 * @param from       earliest start (inclusive), or null
 * @param to         latest start (exclusive; a date alone means the end of that day), or null
 */
public record CaseFilter(Set<ModelFamily> families, Set<String> models, Set<BackendId> backends, Set<String> browsers,
                         Set<String> hosts, Set<Precision> precisions, Set<Integer> batches, Set<Status> statuses,
                         Instant from, Instant to) {
    /** The query parameter names, in the order the page shows them. */
    public static final List<String> FIELDS = List.of("family", "model", "backend", "browser", "host", "precision", "batch",
            "status", "from", "to");

    /** Accepts everything. */
    public static final CaseFilter ALL = new CaseFilter(Set.of(), Set.of(), Set.of(), Set.of(), Set.of(), Set.of(), Set.of(),
            Set.of(), null, null);

    public CaseFilter {
        families = Set.copyOf(families);
        models = Set.copyOf(models);
        backends = Set.copyOf(backends);
        browsers = Set.copyOf(browsers);
        hosts = Set.copyOf(hosts);
        precisions = Set.copyOf(precisions);
        batches = Set.copyOf(batches);
        statuses = Set.copyOf(statuses);
    }

    /**
     * Reads the filter from query parameters ({@link #FIELDS}); a parameter may repeat or hold a comma-separated list.
     *
     * @throws ReportsException naming the parameter and the accepted values when a value is not understood
     */
    public static CaseFilter parse(Map<String, List<String>> params) {
        return new CaseFilter(
                values(params, "family", v -> ModelFamily.parse(v)),
                values(params, "model", v -> v),
                values(params, "backend", v -> BackendId.parse(v)),
                values(params, "browser", v -> v.toLowerCase(java.util.Locale.ROOT)),
                values(params, "host", v -> v),
                values(params, "precision", v -> Precision.parse(v)),
                values(params, "batch", CaseFilter::batch),
                values(params, "status", CaseFilter::status),
                instant(params, "from", false), instant(params, "to", true));
    }

    /** True when {@code r} passes every field. */
    public boolean test(RunResult r) {
        var id = r.id();
        return (families.isEmpty() || families.contains(id.family()))
                && (models.isEmpty() || models.contains(id.model()))
                && (backends.isEmpty() || backends.contains(id.requested()))
                && (browsers.isEmpty() || browsers.contains(id.lane().id()))
                && (hosts.isEmpty() || hosts.contains(hostName(r)) || hosts.contains(r.hostFingerprint()))
                && (precisions.isEmpty() || precisions.contains(id.precision()))
                && (batches.isEmpty() || batches.contains(id.batchSize()))
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

    private static Integer batch(String v) {
        int b = Integer.parseInt(v);
        if (b < 1) {
            throw new IllegalArgumentException("a batch size is at least 1");
        }
        return b;
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
