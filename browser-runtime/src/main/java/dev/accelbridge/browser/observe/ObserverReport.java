package dev.accelbridge.browser.observe;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.MapperFeature;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.exc.MismatchedInputException;
import com.fasterxml.jackson.databind.introspect.AnnotatedMember;
import com.fasterxml.jackson.databind.introspect.AnnotatedParameter;
import com.fasterxml.jackson.databind.introspect.JacksonAnnotationIntrospector;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.type.LogicalType;
import dev.accelbridge.core.AccelbridgeException;
import dev.accelbridge.core.Untrusted;

import java.util.stream.Collectors;

/**
 * Reads a realm's observer report strictly into {@link Observed}, the records its schema is generated from
 * ({@link ObserverSchema}): a key no record declares, a key written twice, anything after the report, a value of another
 * JSON type than its component's ({@code "5"} for a count, {@code 2.5} for a whole one, {@code 7} for a name, {@code null}
 * for a flag) and a missing primitive component are refused, naming where; nothing is converted or made up (a missing
 * count read as 0 would be a figure no page gave). The page is another program: what it says is checked, never believed.
 */
final class ObserverReport {
    private static final ObjectMapper JSON = JsonMapper.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, DeserializationFeature.FAIL_ON_TRAILING_TOKENS,
                    DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES)
            .disable(DeserializationFeature.ACCEPT_FLOAT_AS_INT)
            .disable(MapperFeature.ALLOW_COERCION_OF_SCALARS)
            .withCoercionConfig(LogicalType.Textual, c -> c.setCoercion(CoercionInputShape.Integer, CoercionAction.Fail)
                    .setCoercion(CoercionInputShape.Float, CoercionAction.Fail).setCoercion(CoercionInputShape.Boolean, CoercionAction.Fail))
            .annotationIntrospector(new JacksonAnnotationIntrospector() {
                @Override
                public Boolean hasRequiredMarker(AnnotatedMember m) {
                    return m instanceof AnnotatedParameter p && required(p.getRawType()) ? Boolean.TRUE : super.hasRequiredMarker(m);
                }
            })
            .build();

    private ObserverReport() {
    }

    /** Whether a component of type {@code type} must be in the report: a primitive has no "unknown" to fall back on. */
    static boolean required(Class<?> type) {
        return type.isPrimitive();
    }

    /**
     * The report {@code json}, read in {@code where}.
     *
     * @throws AccelbridgeException naming where the report breaks its schema
     */
    static Observed read(String json, Observed.Realm where) {
        try {
            return JSON.readValue(json, Observed.class).in(where);
        } catch (MismatchedInputException e) {
            String at = e.getPath().stream().map(r -> r.getFieldName() == null ? "[" + r.getIndex() + "]" : "." + r.getFieldName())
                    .collect(Collectors.joining());
            throw new AccelbridgeException("the page's observer report breaks its schema at " + Untrusted.bounded(at.isEmpty() ? "its root" : at, 200)
                    + ": " + Untrusted.bounded(e.getOriginalMessage(), 300), "report it: the observer and this reader disagree");
        } catch (JsonProcessingException e) {
            throw new AccelbridgeException("the page's observer report could not be read: " + Untrusted.bounded(e.getOriginalMessage(), 300),
                    "report it: the observer and this reader disagree");
        }
    }
}
