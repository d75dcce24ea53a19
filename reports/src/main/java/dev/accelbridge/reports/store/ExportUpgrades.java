package dev.accelbridge.reports.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.SampleStats;
import dev.accelbridge.reports.StoreException;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;

/**
 * How an export file of an older schema version becomes the current one, step by step: a schema change that changes the
 * export adds its step here (and its migration in {@link Migrations}), so older exports still merge.
 */
final class ExportUpgrades {
    private ExportUpgrades() {
    }

    /**
     * Upgrade steps of the export document: the entry for {@code n} turns a version-{@code n} document into a
     * version-{@code n+1} one. Empty while only version 1 exists; a schema change adds its step here.
     */
    static final Map<Integer, UnaryOperator<ObjectNode>> UPGRADES = new LinkedHashMap<>();

    static {
        // 1 → 2: results were nested ({timings:{...}, parity:{...}}); now the one flat form of ResultJson.result
        // 2 → 3: results gained rtol, toleranceBudget, toleranceBasis; a v2 result was judged by an absolute bound alone,
        // which is what reading it without them means
        UPGRADES.put(2, doc -> doc);
        // 3 → 4: the models' op types travel with the results (an older file has none)
        UPGRADES.put(3, doc -> {
            if (!doc.has("models")) {
                doc.putArray("models");
            }
            return doc;
        });
        // 4 → 5: results gained variantParity (an fp16/int8 variant against its own native CPU run); an older result
        // has none, which is what reading it without the field means
        UPGRADES.put(4, doc -> doc);
        // 5 → 6: results gained bisection, profile, coldStart and recreate; an older result has none of them
        UPGRADES.put(5, doc -> doc);
        // 6 → 7: results gained attempts, earlierAttempts and flaky (--retries); an older result ran once
        UPGRADES.put(6, doc -> doc);
        // 7 → 8: results gained their sample quality (p50CiMs, timerResolutionMs, latencyFloorMs, steady, ...); an older
        // result has none. A p90 or p99 from fewer samples than it needs
        // (SampleStats.samplesNeeded) is dropped, as this version never reports one
        UPGRADES.put(7, doc -> {
            for (JsonNode r : doc.path("results")) {
                if (r instanceof ObjectNode o && o.path("iterations").canConvertToInt()) {
                    int n = o.path("iterations").asInt();
                    if (!SampleStats.supports(n, 0.9)) {
                        o.putNull("p90Ms");
                    }
                    if (!SampleStats.supports(n, 0.99)) {
                        o.putNull("p99Ms");
                    }
                }
            }
            return doc;
        });
        // 8 → 9: a result's lane names its versions (browserMajor, ortWebVersion, ortVersion); an older result takes what
        // its provenance recorded, as the store's migration 9 does
        UPGRADES.put(8, doc -> {
            for (JsonNode r : doc.path("results")) {
                if (r instanceof ObjectNode o) {
                    JsonNode p = o.path("provenance");
                    boolean nativeLane = o.path("lane").asText("native").equals("native");
                    putIfText(o, "browserMajor", nativeLane ? null : LaneId.majorOf(text(p.path("browserVersion"))));
                    putIfText(o, "ortWebVersion", nativeLane ? null : text(p.path("runtimeVersions").path("onnxruntime-web")));
                    putIfText(o, "ortVersion", nativeLane ? text(p.path("runtimeVersions").path("onnxruntime")) : null);
                }
            }
            return doc;
        });
        // 9 → 10: results gained their scenario (a single pass or a generation) and a generation's decoding figures; an
        // older result was one forward pass, which is what reading it without the fields means
        UPGRADES.put(9, doc -> doc);
        // 10 → 11: results gained their runtime options (the session options that differ from the defaults); an older
        // result ran with the defaults, which is what reading it without the field means
        UPGRADES.put(10, doc -> doc);
        // 11 → 12: results gained figuresOf (a fallback judged on the same work another cell of its lane measured); an
        // older result measured its own figures, which is what reading it without the field means
        UPGRADES.put(11, doc -> doc);
        // 12 → 13: a result's memory gained the page's GPU ledger, heaps, processes and sources; an older result measured
        // none of them, which is what reading it without the fields means (unknown)
        UPGRADES.put(12, doc -> doc);
        // 13 → 14: the store's models gained their cost (FLOPs a item, weight bytes); an export carries no model cost, so
        // nothing in it changes (a merged model's cost stays unknown)
        UPGRADES.put(13, doc -> doc);
        // 14 → 15: results gained their outcome (ran, stopped, unplaced, not run); an older result's is read from the fields
        // it held, the one place that still reads it so (ImportedOutcome)
        UPGRADES.put(14, doc -> {
            for (JsonNode r : doc.path("results")) {
                if (r instanceof ObjectNode o) {
                    ImportedOutcome.put(o);
                }
            }
            return doc;
        });
        UPGRADES.put(1, doc -> {
            for (JsonNode r : doc.path("results")) {
                if (r instanceof ObjectNode o) {
                    JsonNode t = o.remove("timings");
                    if (t instanceof ObjectNode to) {
                        o.setAll(to);
                    }
                    JsonNode q = o.remove("parity");
                    if (q instanceof ObjectNode qo) {
                        for (String f : List.of("maxAbsErr", "maxRelErr", "cosine", "tolerance", "within")) {
                            o.set(f, qo.get(f));
                        }
                        o.set("parityAgainst", qo.get("against"));
                    }
                    JsonNode p = o.get("provenance");
                    if (!o.has("lane")) {
                        o.put("lane", p == null || p.isNull() || p.path("browser").isNull() || p.path("browser").isMissingNode()
                                ? "native" : p.path("browser").asText());
                    }
                }
            }
            return doc;
        });
    }

    private static String text(JsonNode n) {
        return n.isTextual() ? n.asText() : null;
    }

    private static void putIfText(ObjectNode o, String field, String v) {
        if (v != null && !o.has(field)) {
            o.put(field, v);
        }
    }

    /** Applies the upgrade steps from the document's version to the current one. */
    static ObjectNode upgrade(ObjectNode doc, Path f) {
        int v = doc.get("schemaVersion").asInt();
        int current = MatrixStore.currentSchemaVersion();
        if (v > current) {
            throw new StoreException("The merge file " + f + " has schema version " + v + ", newer than this Accelbridge's "
                    + current, "upgrade Accelbridge on this machine, or export with the older version");
        }
        ObjectNode d = doc;
        while (v < current) {
            UnaryOperator<ObjectNode> step = UPGRADES.get(v);
            if (step == null) {
                throw new StoreException("The merge file " + f + " has schema version " + v + ", which this Accelbridge cannot upgrade",
                        "re-export it with a newer Accelbridge");
            }
            d = step.apply(d);
            v++;
            d.put("schemaVersion", v);
        }
        return d;
    }
}
