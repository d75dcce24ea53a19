package dev.accelbridge.tools.dashboard;

import dev.accelbridge.core.VersionAxes;
import dev.accelbridge.core.VersionAxis;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.run.PlanDefaults;
import dev.accelbridge.run.PlanJson;
import dev.accelbridge.run.RunPlan;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.reports.store.ResultJson;

import java.util.List;

/**
 * The dashboard's "start a run" form, as the page posts it ({@code POST /api/runs}): the plan's own groups
 * ({@code workload}, {@code targets}, {@code sampling}, {@code limits}, {@code drillDown}, each field as a stored plan
 * holds it, so the form can ask for everything {@code accelbridge run} can), and beside them the short keys the form has
 * always taken ({@code suites}, {@code models}, {@code backends}, {@code browsers}, {@code ortWeb}, {@code ort},
 * {@code precisions}, {@code batchSizes}, {@code iterations}, {@code warmups}: arrays or comma-separated strings), which
 * are moved into their groups as an older stored plan's are ({@link PlanJson#grouped}). It becomes a {@link RunPlan}
 * through the groups' builders, which the launched run reads back ({@code run --plan}).
 *
 * @param groups the form as the plan's groups
 */
public record RunForm(ObjectNode groups) {
    /** The short keys whose values may be comma-separated strings; an empty one is silence (the default). */
    private static final List<String> LISTS = List.of("suites", "models", "backends", "browsers", "ortWeb", "ort", "precisions",
            "batchSizes");

    /**
     * Reads the posted JSON object.
     *
     * @throws AccelbridgeException when the body is not such an object
     */
    public static RunForm parse(JsonNode body) {
        if (body == null || !body.isObject()) {
            throw new AccelbridgeException("The run request is not a JSON object", "post {\"suites\":[\"text\"],\"backends\":[\"wasm\",\"cpu\"]}");
        }
        ObjectNode flat = body.deepCopy();
        for (String k : java.util.stream.Stream.concat(LISTS.stream(), VersionAxes.all().stream().map(VersionAxis::name)).toList()) {
            JsonNode v = flat.remove(k);
            ArrayNode a = ResultJson.MAPPER.createArrayNode();
            Iterable<JsonNode> given = v == null || v.isNull() ? List.of() : v.isArray() ? v : List.of(v);
            for (JsonNode x : given) {
                for (String p : x.asText().split(",")) {
                    if (!p.isBlank()) {
                        a.add(p.trim());
                    }
                }
            }
            if (!a.isEmpty()) {
                flat.set(k, a);
            }
        }
        for (String k : List.of("iterations", "warmups")) {
            if (flat.get(k) != null && flat.get(k).isTextual() && flat.get(k).asText().isBlank()) {
                flat.remove(k);
            }
        }
        return new RunForm(PlanJson.grouped(flat));
    }

    /**
     * The plan this form stands for, with {@code accelbridge run}'s defaults where the form is silent (every backend and
     * browser, the lanes this host affords): the page, the CLI and {@code --resume} share one plan type and one validation.
     *
     * @throws AccelbridgeException naming the field whose value is not understood, or the plan's own refusal
     */
    public RunPlan plan() {
        ObjectNode g = groups.deepCopy();
        ObjectNode t = (ObjectNode) g.get("targets");
        if (!t.hasNonNull("backends")) {
            t.set("backends", ResultJson.MAPPER.valueToTree(PlanDefaults.backends(false)));
        }
        if (!t.hasNonNull("browsers")) {
            t.set("browsers", ResultJson.MAPPER.valueToTree(PlanDefaults.browsers()));
        }
        if (!t.hasNonNull("parallel")) {
            t.put("parallel", PlanDefaults.parallel());
        }
        return PlanJson.read(g);
    }
}
