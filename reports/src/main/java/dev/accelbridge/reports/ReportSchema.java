package dev.accelbridge.reports;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.Dimension;
import dev.accelbridge.core.Dimensions;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.RecordSchema;
import dev.accelbridge.reports.recommend.RecommendationJson;
import dev.accelbridge.reports.render.ComparisonJson;
import dev.accelbridge.reports.store.Figure;
import dev.accelbridge.reports.store.ResultForm;

import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The JSON forms the reports write as records, as one JSON Schema generated from those records ({@link RecordSchema}):
 * a result (the export's and {@code run --json}'s), the comparison, the recommendations. The committed copy
 * ({@code report-forms.schema.json} beside these classes) is held to the records by a test, as the page protocol's is.
 */
@PublicApi
public final class ReportSchema {
    /** Where the committed schema is on the classpath. */
    public static final String RESOURCE = "dev/accelbridge/reports/report-forms.schema.json";
    /** The forms, by the name each is listed under. */
    private static final Map<String, Class<?>> FORMS = forms();

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ReportSchema() {
    }

    private static Map<String, Class<?>> forms() {
        Map<String, Class<?>> m = new LinkedHashMap<>();
        m.put("result", ResultForm.class);
        m.put("comparison", ComparisonJson.Form.class);
        m.put("recommendation", RecommendationJson.Entry.class);
        m.put("dtypeRecommendation", RecommendationJson.DtypeEntry.class);
        return m;
    }

    /** The reports' rules: a measured figure is a number, null when unknown, or an infinity's name. */
    private static final RecordSchema.Rules RULES = new RecordSchema.Rules() {
        @Override
        public Optional<Map<String, Object>> special(RecordComponent rc) {
            if (!rc.getAccessor().isAnnotationPresent(Figure.class)) { // a record component keeps it on its accessor
                return Optional.empty();
            }
            Map<String, Object> n = new LinkedHashMap<>();
            n.put("type", List.of("number", "null", "string"));
            n.put("description", "a measured figure: null when unknown, \"Infinity\" or \"-Infinity\" when infinite");
            return Optional.of(n);
        }

        @Override
        public Optional<Map<String, Object>> other(Class<?> c) {
            if (c == Instant.class) {
                return Optional.of(RecordSchema.ordered("type", "string", "format", "date-time"));
            }
            if (c.isEnum() || c.getPackageName().equals("dev.accelbridge.core") && c.isAnnotationPresent(PublicApi.class) && !c.isRecord()) {
                return Optional.of(Map.of("type", "string")); // written by its id ({@code ResultJson.MAPPER}'s modules)
            }
            if (JsonNode.class.isAssignableFrom(c)) {
                return Optional.of(Map.of("description", "a JSON value this form holds as the store wrote it"));
            }
            return Optional.empty();
        }
    };

    /** The schema, generated from the records now. */
    public static ObjectNode generate() {
        ObjectNode root = JSON.createObjectNode();
        root.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        root.put("title", "Accelbridge report forms");
        root.put("description", "Generated from the reports' records (ReportSchema); docs/recording.md says what each field means.");
        root.putObject("$defs"); // filled below, where it stands
        Map<String, Object> defs = new LinkedHashMap<>();
        RecordSchema schema = new RecordSchema(defs, RULES, "ReportSchema");
        ObjectNode forms = root.putObject("forms");
        FORMS.forEach((name, c) -> forms.set(name, JSON.valueToTree(schema.type(c))));
        withCase(defs);
        root.set("$defs", JSON.valueToTree(defs));
        return root;
    }

    /**
     * A result names its case after {@code caseKey} one field per {@link Dimensions#all()} (each dimension declared once,
     * as data, not as a component of the record): the result's definition gets them there.
     */
    @SuppressWarnings("unchecked")
    private static void withCase(Map<String, Object> defs) {
        Map<String, Object> props = (Map<String, Object>) ((Map<String, Object>) defs.get(ResultForm.class.getSimpleName())).get("properties");
        Map<String, Object> out = new LinkedHashMap<>();
        props.forEach((k, v) -> {
            out.put(k, v);
            if (k.equals("caseKey")) {
                for (Dimension<?> d : Dimensions.all()) {
                    out.put(d.name(), RecordSchema.ordered("type", d.kind() == Dimension.Kind.WHOLE ? "integer" : "string", "description",
                            "the case's " + d.label()));
                }
            }
        });
        props.clear();
        props.putAll(out);
    }

    /** The schema as the committed file holds it. */
    public static String text() {
        try {
            return JSON.writeValueAsString(generate()) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }
}
