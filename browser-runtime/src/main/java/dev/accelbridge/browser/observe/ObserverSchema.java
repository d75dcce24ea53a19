package dev.accelbridge.browser.observe;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.RecordSchema;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.Map;
import java.util.Optional;

/**
 * A realm's observer report as one JSON Schema, generated from the records it is read into ({@link Observed}) by the
 * generator the page protocol's and the reports' schemas are made by ({@link RecordSchema}). The committed copy
 * ({@code observer-report.schema.json} beside these classes) is held to the records by a test; the reader
 * ({@code ObserverReport}) holds a report to the same records, refusing what the schema does not allow. The reader's own
 * component ({@code realm}, where it read the report) is not the page's to say.
 */
@PublicApi
public final class ObserverSchema {
    /** Where the committed schema is on the classpath. */
    public static final String RESOURCE = "dev/accelbridge/browser/observe/observer-report.schema.json";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ObserverSchema() {
    }

    /** The reader's rules: a primitive component is required; an enum is its constants' names. */
    private static final RecordSchema.Rules RULES = new RecordSchema.Rules() {
        @Override
        public boolean required(RecordComponent rc) {
            return ObserverReport.required(rc.getType());
        }

        @Override
        public Optional<Map<String, Object>> other(Class<?> c) {
            return c.isEnum() ? Optional.of(RecordSchema.ordered("type", "string", "enum",
                    Arrays.stream(c.getEnumConstants()).map(e -> ((Enum<?>) e).name()).toList())) : Optional.empty();
        }
    };

    /** The schema, generated from the records now. */
    public static ObjectNode generate() {
        return JSON.valueToTree(RecordSchema.document("Accelbridge observer report", "Generated from the records a realm's report is "
                + "read into (ObserverSchema); a key no record declares is refused. docs/observe.md says what each field means.", (root, defs) -> {
                    Map<String, Object> report = new RecordSchema(defs, RULES, "ObserverSchema").object(Observed.class);
                    @SuppressWarnings("unchecked")
                    Map<String, Object> props = (Map<String, Object>) report.get("properties");
                    props.remove("realm"); // the reader's, never the page's
                    defs.remove("Observed.Realm");
                    report.put("additionalProperties", false);
                    root.put("report", report);
                    defs.values().forEach(d -> {
                        if (d instanceof Map<?, ?> m && "object".equals(m.get("type"))) {
                            @SuppressWarnings("unchecked")
                            Map<String, Object> def = (Map<String, Object>) m;
                            def.put("additionalProperties", false);
                        }
                    });
                }));
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
