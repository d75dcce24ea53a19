package dev.accelbridge.reports.store;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.Analysis;
import dev.accelbridge.core.ComputedPrecision;
import dev.accelbridge.core.Placement;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.Bisection;
import dev.accelbridge.core.ColdStart;
import dev.accelbridge.core.LoadDiagnosis;
import dev.accelbridge.core.OpProfile;
import dev.accelbridge.core.Readout;
import dev.accelbridge.core.Recreate;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import static dev.accelbridge.reports.store.ResultJson.MAPPER;
import static dev.accelbridge.reports.store.ResultJson.num;
import static dev.accelbridge.reports.store.ResultJson.strings;
import static dev.accelbridge.reports.store.ResultJson.text;

/**
 * The one JSON form of a case's drill-down, as fields of a result: {@code bisection}
 * ({@code node, opType, maxAbsErr, reproDir, nonFinite, ...}), {@code profile} ({@code ops:[{opType, ms, share}], nodesOffProvider,
 * memcpy, ...}), {@code coldStart}, {@code recreate}, {@code placement} ({@code requested, onRequested, ranOn,
 * offNodes, basis}), {@code readout} ({@code kind, items, minCosine, maxAbsErr, agree, note}) and {@code computed}
 * ({@code insertedCasts, inFloat32, basis, float32Inside}: where a half-precision variant's arithmetic ran) and {@code load}
 * ({@code runtime, failsAt, loadsAt, optimizer, rejectedFrom}: why a load was refused, {@link LoadForm}); each null when absent. The store keeps the same object.
 */
final class AnalysisJson {
    private AnalysisJson() {
    }

    /** The drill-down's fields, into {@code o}. */
    public static void put(ObjectNode o, Analysis a) {
        o.set("bisection", a.bisection() == null ? null : MAPPER.valueToTree(AnalysisForms.BisectionForm.of(a.bisection())));
        o.set("profile", a.profile() == null ? null : MAPPER.valueToTree(AnalysisForms.ProfileForm.of(a.profile())));
        o.set("coldStart", a.coldStart() == null ? null : MAPPER.valueToTree(AnalysisForms.ColdStartForm.of(a.coldStart())));
        o.set("recreate", a.recreate() == null ? null : MAPPER.valueToTree(AnalysisForms.RecreateForm.of(a.recreate())));
        o.set("placement", a.placement() == null ? null : MAPPER.valueToTree(AnalysisForms.PlacementForm.of(a.placement())));
        o.set("readout", a.readout() == null ? null : MAPPER.valueToTree(AnalysisForms.ReadoutForm.of(a.readout())));
        o.set("computed", a.computed() == null ? null : MAPPER.valueToTree(AnalysisForms.ComputedForm.of(a.computed())));
        o.set("load", a.load() == null ? null : MAPPER.valueToTree(LoadForm.of(a.load())));
    }

    /**
     * A load diagnosis as the store keeps it, serialised whole: the runtime, the levels it failed at, the one that loads it,
     * the optimizer and the node it made the rejected one from (null when not named).
     */
    record LoadForm(String runtime, List<String> failsAt, String loadsAt, String optimizer, String rejectedFrom) {
        LoadForm {
            failsAt = failsAt == null ? List.of() : failsAt;
        }

        static LoadForm of(LoadDiagnosis d) {
            return new LoadForm(d.runtime(), d.failsAt(), d.loadsAt(), d.optimizer(), d.rejectedFrom());
        }

        LoadDiagnosis diagnosis() {
            return new LoadDiagnosis(runtime, failsAt, loadsAt, optimizer, rejectedFrom, null);
        }
    }

    /** A stored load diagnosis; null when there is none or it is not one. */
    static LoadDiagnosis load(JsonNode o) {
        if (o == null || !o.isObject()) {
            return null;
        }
        try {
            return MAPPER.treeToValue(o, LoadForm.class).diagnosis();
        } catch (JsonProcessingException | IllegalArgumentException e) {
            return null; // not a diagnosis this version wrote: unknown, as an absent one is
        }
    }

    /** The drill-down as one object (what the store's {@code analysis} column holds); null when empty. */
    public static String column(Analysis a) {
        if (a == null || a.isEmpty()) {
            return null;
        }
        ObjectNode o = MAPPER.createObjectNode();
        put(o, a);
        return o.toString();
    }

    /** The drill-down from a result's (or the column's) fields; {@link Analysis#NONE} when it has none. */
    public static Analysis read(JsonNode o) {
        if (o == null || o.isNull() || o.isMissingNode()) {
            return Analysis.NONE;
        }
        return new Analysis(bisection(o.get("bisection")), profile(o.get("profile")), coldStart(o.get("coldStart")),
                recreate(o.get("recreate")), placement(o.get("placement")), readout(o.get("readout")), computed(o.get("computed")),
                load(o.get("load")));
    }

    static Readout readout(JsonNode o) {
        return o == null || o.isNull() ? null : new Readout(Readout.Kind.parse(o.path("kind").asText()), o.path("items").asInt(),
                num(o.get("minCosine")), num(o.get("maxAbsErr")), o.path("agree").asInt(), text(o, "note"));
    }

    static ComputedPrecision computed(JsonNode o) {
        if (o == null || o.isNull()) {
            return null;
        }
        List<String> inside = new ArrayList<>(); // a record from before has none; a stored list is bounded as read
        for (JsonNode n : o.path("float32Inside")) {
            if (n.isTextual() && n.asText().length() <= 128 && inside.size() < 64) {
                inside.add(n.asText());
            }
        }
        return new ComputedPrecision(Math.max(0, o.path("insertedCasts").asInt()), inside, text(o, "basis"));
    }

    static Placement placement(JsonNode o) {
        if (o == null || o.isNull()) {
            return null;
        }
        return new Placement(text(o, "requested"), o.path("onRequested").asBoolean(), strings(o.path("offNodes")), text(o, "basis"));
    }

    static Bisection bisection(JsonNode o) {
        if (o == null || o.isNull()) {
            return null;
        }
        Map<String, String> attrs = new LinkedHashMap<>();
        o.path("attributes").fields().forEachRemaining(e -> attrs.put(e.getKey(), e.getValue().asText()));
        List<Bisection.Step> path = new ArrayList<>();
        for (JsonNode s : o.path("path")) {
            path.add(new Bisection.Step(s.path("node").asText(), s.path("opType").asText(), num(s.get("maxAbsErr"))));
        }
        return new Bisection(Bisection.Outcome.valueOf(o.path("outcome").asText("FOUND")), text(o, "node"), text(o, "opType"),
                attrs, strings(o.path("inputs")), strings(o.path("outputs")), num(o.get("maxAbsErr")), num(o.get("tolerance")),
                text(o, "against"), o.hasNonNull("backend") ? BackendId.parse(o.get("backend").asText()) : null, path,
                o.path("compared").asInt(), text(o, "reproDir"), text(o, "note"), nonFinite(o.get("nonFinite")));
    }

    private static Bisection.NonFinite nonFinite(JsonNode o) {
        return o == null || o.isNull() ? null : new Bisection.NonFinite(text(o, "node"), text(o, "opType"), text(o, "value"),
                o.path("count").asLong(), o.path("elements").asLong(), o.path("onReference").asLong());
    }

    static OpProfile profile(JsonNode o) {
        if (o == null || o.isNull()) {
            return null;
        }
        List<OpProfile.OpTime> ops = new ArrayList<>();
        for (JsonNode t : o.path("ops")) {
            ops.add(new OpProfile.OpTime(t.path("opType").asText(), num(t.get("ms")), num(t.get("share")), t.path("nodes").asInt()));
        }
        List<OpProfile.NodeTime> top = new ArrayList<>();
        for (JsonNode n : o.path("topNodes")) {
            top.add(new OpProfile.NodeTime(n.path("node").asText(), n.path("opType").asText(), text(n, "provider"),
                    num(n.get("ms")), num(n.get("share"))));
        }
        return new OpProfile(text(o, "source"), o.path("iterations").asInt(), num(o.get("totalMs")), num(o.get("profiledP50Ms")),
                ops, top, text(o, "requestedProvider"), strings(o.path("nodesOffProvider")), o.path("memcpy").asInt(), text(o, "note"));
    }

    static ColdStart coldStart(JsonNode o) {
        return o == null || o.isNull() ? null
                : new ColdStart(num(o.get("fetchMs")), num(o.get("createMs")), num(o.get("firstRunMs")), num(o.get("warmP50Ms")),
                o.hasNonNull("freshPage") ? o.get("freshPage").asBoolean() : null);
    }

    static Recreate recreate(JsonNode o) {
        if (o == null || o.isNull()) {
            return null;
        }
        List<Recreate.Cycle> cycles = new ArrayList<>();
        for (JsonNode c : o.path("samples")) {
            cycles.add(new Recreate.Cycle(c.path("cycle").asInt(), num(c.get("createMs")), num(c.get("runMs")),
                    c.path("rssBytes").asLong(-1), c.path("heapBytes").asLong(-1), c.path("gpuBytes").asLong(-1),
                    c.path("wasmBytes").asLong(-1)));
        }
        return new Recreate(o.path("cycles").asInt(), cycles, num(o.get("rssGrowthPerCycleBytes")),
                num(o.get("heapGrowthPerCycleBytes")), text(o, "note"), num(o.get("gpuGrowthPerCycleBytes")),
                num(o.get("wasmGrowthPerCycleBytes")));
    }
}
