package dev.accelbridge.run;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.SamplingDepth;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.VersionAxes;
import dev.accelbridge.core.VersionAxis;
import dev.accelbridge.reports.store.ResultJson;

import java.time.Duration;
import java.util.Iterator;
import java.util.Map;
import java.util.Optional;

/**
 * A run's plan as JSON: the plan's groups as the one configured mapper ({@link ResultJson#MAPPER}) writes them, with
 * {@code version} beside them. What the run ledger stores with every run ({@code plan}), what {@code run --resume}
 * reads back and what the dashboard hands to the run it launches ({@code run --plan FILE}). Reading goes through the
 * groups' builders, so a stored plan is checked as a new one is and a field it lacks takes the builder's default. A plan
 * stored by an older Accelbridge (one flat object, {@code version} 1) is moved into the groups first ({@link #grouped}),
 * and one whose versions were runtimes ({@code version} 2) has them moved to its axes.
 */
@PublicApi
public final class PlanJson {
    /**
     * The version of this form: 4 since sampling has a depth ({@code sampling.depth}; a plan stored before resumes with
     * {@code full}); 3: a plan's versions are by axis ({@code targets.versions}); 2: the groups, with
     * {@code targets.runtimes} holding {@code ortWeb} and {@code ort}; 1: one flat object.
     */
    public static final int VERSION = 4;

    /** The names plans and the dashboard's form gave versions before they were by axis, and the axis each is. */
    private static final Map<String, String> OLDER_VERSION_KEYS = Map.of("ortWeb", "ortWebVersion", "ort", "ortVersion");

    private PlanJson() {
    }

    /** The plan as a JSON object. */
    public static ObjectNode write(RunPlan p) {
        ObjectNode o = ResultJson.MAPPER.createObjectNode().put("version", VERSION);
        o.setAll((ObjectNode) ResultJson.MAPPER.valueToTree(p));
        return o;
    }

    /**
     * Reads a plan {@link #write} wrote (or an older Accelbridge did), through the builders, so it is checked as a new
     * plan is.
     *
     * @throws AccelbridgeException naming what is wrong when the JSON is not a plan or the plan cannot run
     */
    public static RunPlan read(JsonNode json) {
        if (json == null || !json.isObject()) {
            throw new AccelbridgeException("The stored plan is not a JSON object", "give a plan written by Accelbridge");
        }
        JsonNode v = json.get("version");
        ObjectNode groups = v != null && v.asInt() >= 2 ? ((ObjectNode) json).deepCopy() : grouped((ObjectNode) json);
        if (groups.get("targets") instanceof ObjectNode t && t.remove("runtimes") instanceof ObjectNode runtimes) {
            versions(runtimes, t); // a version-2 plan
        }
        JsonNode targets = groups.get("targets");
        if (targets == null || targets.get("backends") == null) {
            throw new AccelbridgeException("The stored plan names no backend", "give a plan written by Accelbridge");
        }
        return typed(groups, RunPlan.class);
    }

    /**
     * Reads {@code json} as {@code type} with the one mapper.
     *
     * @throws AccelbridgeException the plan's own refusal (an option out of range), or what is not understood
     */
    private static <T> T typed(JsonNode json, Class<T> type) {
        try {
            return ResultJson.MAPPER.treeToValue(json, type);
        } catch (JsonProcessingException | IllegalArgumentException e) {
            for (Throwable c = e; c != null; c = c.getCause()) {
                if (c instanceof AccelbridgeException a) {
                    throw a; // a builder's refusal names the option and the fix
                }
            }
            String at = e instanceof com.fasterxml.jackson.databind.JsonMappingException m && !m.getPath().isEmpty()
                    ? " (at " + m.getPath().stream().map(r -> r.getFieldName() != null ? r.getFieldName() : "[" + r.getIndex() + "]")
                    .collect(java.util.stream.Collectors.joining(".")) + ")" : "";
            String what = e instanceof com.fasterxml.jackson.databind.JsonMappingException m ? m.getOriginalMessage() : e.getMessage();
            throw new AccelbridgeException("The plan cannot be read: " + String.valueOf(what).lines().findFirst().orElse("") + at,
                    "give a plan written by Accelbridge (a run's plan in the store, or the dashboard's)", e);
        }
    }

    /**
     * A flat plan (what Accelbridge stored before plans were groups, and the keys the dashboard's form has always taken)
     * moved into the groups: each flat field to its group, durations from milliseconds, chains from a map. Fields already
     * grouped are kept; a field it does not know is left out.
     */
    public static ObjectNode grouped(ObjectNode flat) {
        ObjectNode out = ResultJson.MAPPER.createObjectNode().put("version", VERSION);
        for (String g : new String[]{"workload", "targets", "sampling", "limits", "drillDown"}) {
            out.set(g, flat.get(g) instanceof ObjectNode o ? o.deepCopy() : ResultJson.MAPPER.createObjectNode());
        }
        String[][] moves = {
                {"suites", "workload", "suites"}, {"models", "workload", "userModels"}, {"family", "workload", "userFamily"},
                {"largeModels", "workload", "largeModels"}, {"seed", "workload", "seed"}, {"precisions", "workload", "precisions"},
                {"batchSizes", "workload", "batchSizes"}, {"feed", "workload", "feed"}, {"shard", "workload", "shard"},
                {"modelCache", "workload", "modelCache"},
                {"backends", "targets", "backends"}, {"policy", "targets", "policy"}, {"browsers", "targets", "browsers"},
                {"driver", "targets", "driver"}, {"grid", "targets", "grid"}, {"headless", "targets", "headless"},
                {"parallel", "targets", "parallel"},
                {"warmups", "sampling", "warmups"}, {"iterations", "sampling", "iterations"}, {"samplingDepth", "sampling", "depth"},
                {"threads", "limits", "threads"}, {"retries", "limits", "retries"}, {"maxResultBytes", "limits", "maxResultBytes"},
        };
        for (String[] m : moves) {
            JsonNode x = flat.get(m[0]);
            if (x != null && !x.isNull()) {
                ((ObjectNode) out.get(m[1])).set(m[2], x);
            }
        }
        millis(flat, "minDurationMs", out, "sampling", "minDuration");
        millis(flat, "warmupDurationMs", out, "sampling", "warmupDuration");
        millis(flat, "caseTimeoutMs", out, "limits", "caseTimeout");
        millis(flat, "loadTimeoutMs", out, "limits", "loadTimeout");
        ObjectNode targets = (ObjectNode) out.get("targets");
        if (flat.get("chains") instanceof ObjectNode chains) {
            var list = targets.putArray("chains");
            for (Iterator<Map.Entry<String, JsonNode>> it = chains.fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> e = it.next();
                list.addObject().put("requested", e.getKey()).set("hops", e.getValue());
            }
        }
        versions(flat, targets);
        if (flat.has("gridCapabilities") || flat.has("connect") || flat.has("connectExecutable")) {
            ObjectNode r = targets.putObject("remote");
            r.set("gridCapabilities", flat.get("gridCapabilities"));
            r.set("connect", flat.get("connect"));
            r.set("executable", flat.get("connectExecutable"));
        }
        if (flat.has("bridgeHost") || flat.has("advertise") || flat.has("noTls") || flat.has("tlsKeystore")) {
            ObjectNode x = targets.putObject("exposure");
            x.set("bindHost", flat.get("bridgeHost"));
            x.set("advertise", flat.get("advertise"));
            ObjectNode tls = x.putObject("tls").put("plainHttp", flat.path("noTls").asBoolean(false));
            tls.set("keystore", flat.get("tlsKeystore"));
            tls.set("passwordFile", flat.get("tlsPasswordFile"));
        }
        if (flat.get("drillDown") instanceof ObjectNode d) {
            out.set("drillDown", d);
        }
        return out;
    }

    /**
     * Moves the versions {@code from} holds under an older name ({@code ortWeb}, {@code ort}) or an axis's own name or alias
     * into {@code targets.versions}, by axis.
     */
    private static void versions(ObjectNode from, ObjectNode targets) {
        for (Iterator<Map.Entry<String, JsonNode>> it = from.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            Optional<String> axis = Optional.ofNullable(OLDER_VERSION_KEYS.get(e.getKey()))
                    .or(() -> VersionAxes.named(e.getKey()).map(VersionAxis::name));
            if (axis.isPresent() && e.getValue() != null && e.getValue().isArray() && !e.getValue().isEmpty()) {
                ObjectNode vs = targets.get("versions") instanceof ObjectNode o ? o : targets.putObject("versions");
                vs.set(axis.get(), e.getValue());
            }
        }
    }

    private static void millis(ObjectNode flat, String field, ObjectNode out, String group, String to) {
        JsonNode x = flat.get(field);
        if (x != null && x.canConvertToLong() && (x.asLong() > 0 || !field.equals("caseTimeoutMs"))) {
            ((ObjectNode) out.get(group)).put(to, Duration.ofMillis(x.asLong()).toString());
        }
    }

    /**
     * What a run records in the ledger: how it was started ({@code origin}: {@code cli}, {@code java-api}, {@code junit5},
     * ...), its label, and its {@code plan}.
     */
    public static String record(RunPlan plan, String origin, String label) {
        ObjectNode o = ResultJson.MAPPER.createObjectNode();
        o.put("origin", origin);
        if (label != null) {
            o.put("label", label);
        }
        o.set("plan", write(plan));
        return o.toString();
    }

    /**
     * The plan a run recorded ({@link #record}); empty for a run recorded before plans were stored as data (its
     * {@code args} were a command line).
     *
     * @throws AccelbridgeException when the recorded plan is there but cannot be read back
     */
    public static Optional<RunPlan> stored(String recorded) {
        JsonNode n;
        try {
            n = recorded == null ? null : ResultJson.MAPPER.readTree(recorded);
        } catch (JsonProcessingException e) {
            return Optional.empty();
        }
        JsonNode plan = n == null ? null : n.get("plan");
        return plan == null || !plan.isObject() ? Optional.empty() : Optional.of(read(asRan((ObjectNode) plan)));
    }

    /**
     * A stored plan as it ran: one stored before sampling had a depth ({@code --sampling}) settled every case, so it resumes
     * with {@code full}, not with today's default.
     */
    private static ObjectNode asRan(ObjectNode plan) {
        JsonNode v = plan.get("version");
        if (v != null && v.asInt() >= VERSION) {
            return plan;
        }
        ObjectNode copy = plan.deepCopy();
        String full = SamplingDepth.FULL.id();
        if (v == null || v.asInt() < 2) {
            copy.putIfAbsent("samplingDepth", copy.textNode(full)); // a flat plan: read moves it into its group
        } else if (copy.get("sampling") instanceof ObjectNode s && !s.has("depth")) {
            s.put("depth", full);
        }
        return copy;
    }
}
