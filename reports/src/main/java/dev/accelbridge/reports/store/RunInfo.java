package dev.accelbridge.reports.store;

import dev.accelbridge.core.PublicApi;
import java.time.Instant;
import java.util.Map;

/**
 * One run's bookkeeping row.
 *
 * @param runId           the id {@link MatrixStore#beginRun} returned
 * @param startedAt       when it began
 * @param finishedAt      when it finished; null unless FINISHED
 * @param status          running, finished or interrupted
 * @param hostFingerprint the host it ran on
 * @param toolkitVersion  the Accelbridge version
 * @param runtimeVersions component → version
 * @param planJson        the plan as given to beginRun
 * @param results         number of results stored for it
 */
@PublicApi
public record RunInfo(String runId, Instant startedAt, Instant finishedAt, RunStatus status, String hostFingerprint,
                      String toolkitVersion, Map<String, String> runtimeVersions, String planJson, int results) {
    public RunInfo {
        runtimeVersions = runtimeVersions == null ? Map.of() : Map.copyOf(runtimeVersions);
    }

    /** The cases the run planned to write ({@code "cases"} in its plan), or null for a run stored before plans held it. */
    public Integer plannedCases() {
        com.fasterxml.jackson.databind.JsonNode n = plan().get("cases");
        return n == null || !n.canConvertToInt() ? null : n.asInt();
    }

    /** The cases it planned per lane ({@code native}, each browser), in plan order; empty when not recorded. */
    public Map<String, Integer> plannedLanes() {
        Map<String, Integer> m = new java.util.LinkedHashMap<>();
        plan().path("lanes").properties().forEach(e -> m.put(e.getKey(), e.getValue().asInt()));
        return m;
    }

    /** The plan as data ({@code plan}: what {@code run --resume} reads back), or null for a run stored before plans were data. */
    public com.fasterxml.jackson.databind.JsonNode storedPlan() {
        com.fasterxml.jackson.databind.JsonNode n = plan().get("plan");
        return n != null && n.isObject() ? n : null;
    }

    /** The command-line arguments a run stored before plans were data was started with; empty otherwise. */
    public java.util.List<String> args() {
        return ResultJson.strings(plan().get("args"));
    }

    /** How the run was started: {@code cli} for {@code accelbridge run}, else what its plan says ({@code junit5}, {@code java-api}, ...). */
    public String origin() {
        com.fasterxml.jackson.databind.JsonNode n = plan().get("origin");
        return n != null && n.isTextual() ? n.asText() : "cli";
    }

    /** What the run is, as its starter labelled it (a test's {@code Class#method}); null when none. */
    public String label() {
        com.fasterxml.jackson.databind.JsonNode n = plan().get("label");
        return n != null && n.isTextual() ? n.asText() : null;
    }

    private com.fasterxml.jackson.databind.JsonNode plan() {
        try {
            com.fasterxml.jackson.databind.JsonNode n = planJson == null ? null : ResultJson.MAPPER.readTree(planJson);
            return n != null && n.isObject() ? n : ResultJson.MAPPER.createObjectNode();
        } catch (java.io.IOException e) {
            return ResultJson.MAPPER.createObjectNode(); // a plan that is not JSON records nothing of these
        }
    }
}
