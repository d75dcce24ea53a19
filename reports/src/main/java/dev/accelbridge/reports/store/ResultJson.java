package dev.accelbridge.reports.store;

import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.BrowserSpec;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.SamplingDepth;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.module.SimpleModule;
import com.fasterxml.jackson.databind.ser.std.StdSerializer;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.BackendId;
import dev.accelbridge.core.BrowserKind;
import dev.accelbridge.core.LaneId;
import dev.accelbridge.core.ModelFamily;
import dev.accelbridge.core.Precision;
import dev.accelbridge.core.Severity;
import dev.accelbridge.core.CaseId;
import dev.accelbridge.core.Dimension;
import dev.accelbridge.core.Dimensions;
import dev.accelbridge.core.FallbackHop;
import dev.accelbridge.core.HostInfo;
import dev.accelbridge.core.Parity;
import dev.accelbridge.core.Provenance;
import dev.accelbridge.core.RunResult;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The JSON form of a result and of the core records beside it (Provenance, Parity, FallbackHop, HostInfo), written and
 * read by one configured mapper ({@link #MAPPER}): a result is {@link ResultForm} (a typed record) with the case's
 * identity beside it, one field per dimension ({@link #putCase}); the store's JSON columns, the export/merge format,
 * {@code run --json}, {@code matrix.json} and the dashboard's API all use it. Field names are camelCase
 * ({@code loadMs}, {@code p50Ms}, ...). An unknown number (NaN) is written as null, an infinity (an infinite max error
 * from a NaN output) as the string {@code "Infinity"} or {@code "-Infinity"}, so the file stays standard JSON
 * ({@link #num}).
 */
@PublicApi
public final class ResultJson {
    /**
     * The one configured mapper of the result's JSON form and everything stored or served beside it: the core's typed ids
     * ({@link BackendId}, {@link LaneId}, {@link ModelFamily}, {@link Precision}, {@link BrowserKind}, {@link Severity},
     * {@code BrowserSpec}), durations (ISO-8601) and paths are written as text and read back by their parsers, an
     * {@code Optional} as its value or null, maps are written in key order, and a reader ignores the
     * fields a newer writer added.
     */
    public static final ObjectMapper MAPPER = JsonMapper.builder().addModule(ids())
            .addModule(new com.fasterxml.jackson.datatype.jdk8.Jdk8Module())
            .enable(SerializationFeature.ORDER_MAP_ENTRIES_BY_KEYS)
            .disable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES).build();

    private static SimpleModule ids() {
        SimpleModule m = new SimpleModule("accelbridge-ids");
        id(m, BackendId.class, BackendId::id, BackendId::parse);
        id(m, LaneId.class, LaneId::id, LaneId::parse);
        id(m, ModelFamily.class, ModelFamily::id, ModelFamily::parse);
        id(m, Precision.class, Precision::id, Precision::parse);
        id(m, BrowserKind.class, BrowserKind::id, BrowserKind::parse);
        id(m, BrowserSpec.class, BrowserSpec::id, BrowserSpec::parse);
        // a plan's durations and paths as people write them: "PT0.5S", "models/bert" (not a file: URI made absolute)
        id(m, java.time.Duration.class, java.time.Duration::toString, java.time.Duration::parse);
        id(m, java.nio.file.Path.class, java.nio.file.Path::toString, java.nio.file.Path::of);
        id(m, SamplingDepth.class, SamplingDepth::id, SamplingDepth::parse);
        id(m, Severity.class, Severity::id, s -> Severity.valueOf(s.toUpperCase(java.util.Locale.ROOT)));
        return m;
    }

    private static <T> void id(SimpleModule m, Class<T> type, java.util.function.Function<T, String> write,
                               java.util.function.Function<String, T> read) {
        m.addSerializer(type, new StdSerializer<T>(type) {
            @Override
            public void serialize(T value, JsonGenerator gen, SerializerProvider provider) throws java.io.IOException {
                gen.writeString(write.apply(value));
            }
        });
        m.addDeserializer(type, new StdDeserializer<T>(type) {
            @Override
            public T deserialize(JsonParser p, DeserializationContext ctx) throws java.io.IOException {
                String text = p.getValueAsString();
                try {
                    return read.apply(text);
                } catch (RuntimeException e) {
                    return ctx.reportInputMismatch(type, "'%s' is not a %s Accelbridge writes", text, type.getSimpleName());
                }
            }
        });
    }

    private ResultJson() {
    }

    /**
     * A double as a JSON node: a number when finite, null when unknown (NaN: found when tried, {@code run --json} wrote an
     * unmeasured {@code coldStart.fetchMs} as the string "NaN"), and an infinity's name as a string (JSON has none).
     */
    public static JsonNode num(double v) {
        return Double.isFinite(v) ? MAPPER.getNodeFactory().numberNode(v) : Double.isNaN(v) ? MAPPER.getNodeFactory().nullNode()
                : MAPPER.getNodeFactory().textNode(Double.toString(v));
    }

    /**
     * A figure for a record's nullable component: the number when finite, else null (never a placeholder). Where an
     * infinity must stay said, a {@code double} component with {@link Figure} keeps {@link #num}'s rule instead.
     */
    public static Double finite(double v) {
        return Double.isFinite(v) ? v : null;
    }

    /** Reads what {@link #num} wrote; missing or null → NaN. */
    public static double num(JsonNode n) {
        if (n == null || n.isNull() || n.isMissingNode()) {
            return Double.NaN;
        }
        return n.isTextual() ? Double.parseDouble(n.asText()) : n.asDouble();
    }

    static String text(JsonNode n, String field) {
        JsonNode v = n.get(field);
        return v == null || v.isNull() ? null : v.asText();
    }

    /** Provenance → JSON (the record as {@link #MAPPER} writes it). */
    public static ObjectNode provenance(Provenance p) {
        return MAPPER.valueToTree(p);
    }

    /** JSON → Provenance; null for a JSON null. */
    public static Provenance provenance(JsonNode o) {
        return o == null || o.isNull() ? null : typed(o, Provenance.class);
    }

    /** Fallback path → JSON array of {backend, taken, reason}. */
    public static ArrayNode fallbackPath(List<FallbackHop> hops) {
        return MAPPER.valueToTree(hops);
    }

    /** JSON → fallback path. */
    public static List<FallbackHop> fallbackPath(JsonNode a) {
        List<FallbackHop> out = new ArrayList<>();
        if (a != null) {
            a.forEach(o -> out.add(typed(o, FallbackHop.class)));
        }
        return out;
    }

    /** Parity → JSON (a variant's against its native CPU run, as the store's column and the result's field hold it). */
    public static ObjectNode parity(Parity p) {
        return MAPPER.valueToTree(p);
    }

    /** JSON → Parity; null for a JSON null. */
    public static Parity parity(JsonNode o) {
        return o == null || o.isNull() ? null : typed(o, Parity.class);
    }

    private static <T> T typed(JsonNode n, Class<T> type) {
        try {
            return MAPPER.treeToValue(n, type);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("not a " + type.getSimpleName() + ": " + e.getOriginalMessage(), e);
        }
    }

    /** Strings → JSON array. */
    public static ArrayNode strings(List<String> l) {
        ArrayNode a = MAPPER.createArrayNode();
        l.forEach(a::add);
        return a;
    }

    /** JSON array → strings. */
    public static List<String> strings(JsonNode a) {
        List<String> out = new ArrayList<>();
        if (a != null) {
            a.forEach(s -> out.add(s.asText()));
        }
        return out;
    }

    /**
     * THE JSON form of a result ({@link ResultForm}, a typed record) with the case's identity beside it, one field per
     * dimension after {@code caseKey}: {@code run --json}, {@code matrix.json}, the export file and the dashboard's API
     * all write this object (the derived forms add fields, e.g. the score).
     *
     * @param withSamples include every timed sample ({@code samplesMs}), as the export does
     */
    public static ObjectNode result(RunResult r, boolean withSamples) {
        return withCase(MAPPER.valueToTree(ResultForm.of(r, withSamples)), "caseKey", r.id());
    }

    /**
     * {@code form} with the case's identity, one field per dimension ({@link #putCase}), written right after its field
     * {@code after}: each dimension is declared once, as data, not as a component of each form that names a case.
     */
    public static ObjectNode withCase(ObjectNode form, String after, CaseId id) {
        ObjectNode o = MAPPER.createObjectNode();
        form.properties().forEach(e -> {
            o.set(e.getKey(), e.getValue());
            if (e.getKey().equals(after)) {
                putCase(o, id);
            }
        });
        return o;
    }

    /**
     * JSON → result, checked: a malformed record is refused with a message naming the field, so a merge can name
     * the file and the record and import nothing of it.
     *
     * @throws IllegalArgumentException naming what is wrong
     */
    public static RunResult result(JsonNode o) {
        if (o == null || !o.isObject()) {
            throw new IllegalArgumentException("is not a JSON object");
        }
        if (text(o, "runId") == null || text(o, "runId").isBlank()) {
            throw new IllegalArgumentException("has no runId");
        }
        CaseId id = caseOf(o);
        ResultForm form;
        try {
            form = MAPPER.treeToValue(o, ResultForm.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("is not a result: " + e.getOriginalMessage(), e);
        }
        return form.toResult(id);
    }

    /** Writes the case's identity: one field per {@link Dimensions#all()}, under the dimension's name. */
    public static void putCase(ObjectNode o, CaseId id) {
        for (Dimension<?> d : Dimensions.all()) {
            Object v = d.value(id);
            if (v instanceof Integer n) {
                o.put(d.name(), n);
            } else {
                o.put(d.name(), (String) v);
            }
        }
    }

    /**
     * Reads the case's identity that {@link #putCase} wrote; a dimension a record predates takes its older value.
     *
     * @throws IllegalArgumentException naming the field that is missing or not understood
     */
    public static CaseId caseOf(JsonNode o) {
        try {
            return Dimensions.read(d -> text(o, d.name()));
        } catch (AccelbridgeException e) {
            throw new IllegalArgumentException(e.oneLine(), e);
        }
    }

    /** HostInfo → JSON (the {@code detect} output kept in the hosts table). */
    public static ObjectNode host(HostInfo h) {
        return MAPPER.valueToTree(h);
    }

    /** JSON → HostInfo. */
    public static HostInfo host(JsonNode o) {
        try {
            return MAPPER.treeToValue(o, HostInfo.class);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("not a host description: " + e.getOriginalMessage(), e);
        }
    }

    /** Map → JSON text. */
    public static String mapJson(Map<String, String> m) {
        ObjectNode o = MAPPER.createObjectNode();
        new java.util.TreeMap<>(m).forEach(o::put);
        return o.toString();
    }

    /** JSON text → map. */
    public static Map<String, String> mapFromJson(String s) {
        Map<String, String> out = new LinkedHashMap<>();
        if (s == null || s.isBlank()) {
            return out;
        }
        try {
            MAPPER.readTree(s).fields().forEachRemaining(e -> out.put(e.getKey(), e.getValue().asText()));
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("not a JSON object: " + s, e);
        }
        return out;
    }

    /** Parses JSON text, wrapping the checked exception. */
    public static JsonNode parse(String s) {
        try {
            return MAPPER.readTree(s);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage(), e);
        }
    }
}
