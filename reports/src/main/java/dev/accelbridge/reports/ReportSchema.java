package dev.accelbridge.reports;

import com.fasterxml.jackson.annotation.JsonFormat;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
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
import dev.accelbridge.reports.predict.MemoryFits;
import dev.accelbridge.reports.predict.Predictions;
import dev.accelbridge.reports.render.JsonRenderer;
import dev.accelbridge.reports.render.Views;
import dev.accelbridge.reports.store.ExportForm;
import dev.accelbridge.reports.store.Figure;
import dev.accelbridge.reports.store.FormOf;
import dev.accelbridge.reports.store.ResultForm;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.time.Instant;
import java.util.ArrayList;
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
    /** A form the reports write: the name it is listed under and its record. */
    private record Form(String name, Class<?> type) {
    }

    /** The forms, in the order the schema lists them. */
    private static final List<Form> FORMS = List.of(new Form("result", ResultForm.class), new Form("comparison", ComparisonJson.Form.class),
            new Form("recommendation", RecommendationJson.Entry.class), new Form("dtypeRecommendation", RecommendationJson.DtypeEntry.class),
            new Form("export", ExportForm.class), new Form("matrix", JsonRenderer.MatrixForm.class), new Form("cell", Views.CellView.class),
            new Form("views", Views.MatrixView.class), new Form("caseHistory", Views.HistoryEntry.class),
            new Form("prediction", Predictions.PredictionForm.class), new Form("memoryFit", MemoryFits.FitForm.class));

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ReportSchema() {
    }

    /** The reports' rules: a measured figure is a number, null when unknown, or an infinity's name. */
    private static final RecordSchema.Rules RULES = new RecordSchema.Rules() {
        @Override
        public Optional<Map<String, Object>> special(RecordComponent rc) {
            // a record component keeps its annotations on its accessor
            if (rc.getAccessor().isAnnotationPresent(FormOf.class)) {
                Map<String, Object> ref = RecordSchema.ordered("$ref", "#/$defs/" + defName(rc.getAccessor().getAnnotation(FormOf.class).value()));
                return Optional.of(List.class.isAssignableFrom(rc.getType()) ? RecordSchema.ordered("type", "array", "items", ref) : ref);
            }
            if (rc.getGenericType() instanceof ParameterizedType p && p.getRawType() == List.class
                    && p.getActualTypeArguments()[0] instanceof Class<?> e && e.isRecord() && arrayShaped(e)) {
                List<Object> items = new ArrayList<>();
                for (RecordComponent c : e.getRecordComponents()) {
                    items.add(RecordSchema.ordered("type", c.getType() == String.class ? "string" : "number", "description", c.getName()));
                }
                return Optional.of(RecordSchema.ordered("type", "array", "items",
                        RecordSchema.ordered("type", "array", "prefixItems", items, "items", false)));
            }
            if (!rc.getAccessor().isAnnotationPresent(Figure.class)) {
                return Optional.empty();
            }
            return Optional.of(RecordSchema.ordered("type", List.of("number", "null", "string"),
                    "description", "a measured figure: null when unknown, \"Infinity\" or \"-Infinity\" when infinite"));
        }

        @Override
        public boolean unwrapped(RecordComponent rc) {
            return rc.getAccessor().isAnnotationPresent(JsonUnwrapped.class);
        }

        @Override
        public Optional<Map<String, Object>> other(Class<?> c) {
            if (c == Instant.class) {
                return Optional.of(RecordSchema.ordered("type", "string", "format", "date-time"));
            }
            if (c.isEnum()) {
                // each value as the reports' mapper writes it (by its id where it has one, else by its name): the kinds named
                return Optional.of(RecordSchema.ordered("type", "string", "enum", java.util.Arrays.stream(c.getEnumConstants())
                        .map(e -> dev.accelbridge.reports.store.ResultJson.MAPPER.convertValue(e, String.class)).toList()));
            }
            if (c.getPackageName().equals("dev.accelbridge.core") && c.isAnnotationPresent(PublicApi.class) && !c.isRecord()) {
                return Optional.of(Map.of("type", "string")); // written by its id ({@code ResultJson.MAPPER}'s modules)
            }
            if (JsonNode.class.isAssignableFrom(c)) {
                return Optional.of(Map.of("description", "a JSON value this form holds as the store wrote it"));
            }
            return Optional.empty();
        }
    };

    /** A record written as a JSON array of its components ({@code @JsonFormat(shape = ARRAY)}). */
    private static boolean arrayShaped(Class<?> c) {
        JsonFormat f = c.getAnnotation(JsonFormat.class);
        return f != null && f.shape() == JsonFormat.Shape.ARRAY;
    }

    /** A record's name under {@code $defs}, as {@link RecordSchema} names it. */
    private static String defName(Class<?> c) {
        return c.getName().substring(c.getPackageName().length() + 1).replace('$', '.');
    }

    /** The schema, generated from the records now. */
    public static ObjectNode generate() {
        return JSON.valueToTree(RecordSchema.document("Accelbridge report forms",
                "Generated from the reports' records (ReportSchema); docs/recording.md says what each field means.", (root, defs) -> {
                    RecordSchema schema = new RecordSchema(defs, RULES, "ReportSchema");
                    Map<String, Object> forms = new LinkedHashMap<>();
                    FORMS.forEach(f -> forms.put(f.name(), schema.type(f.type())));
                    root.put("forms", forms);
                    withCase(defs);
                }));
    }

    /**
     * A result names its case after {@code caseKey}, a cell's view after {@code ranked}, one field per {@link Dimensions#all()}
     * (each dimension declared once, as data, not as a component of the record): their definitions get them there.
     */
    private static void withCase(Map<String, Object> defs) {
        withCase(defs, ResultForm.class, "caseKey");
        withCase(defs, Views.CellView.class, "ranked");
    }

    @SuppressWarnings("unchecked")
    private static void withCase(Map<String, Object> defs, Class<?> form, String after) {
        Map<String, Object> props = (Map<String, Object>) ((Map<String, Object>) defs.get(defName(form))).get("properties");
        Map<String, Object> out = new LinkedHashMap<>();
        props.forEach((k, v) -> {
            out.put(k, v);
            if (k.equals(after)) {
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
