package dev.accelbridge.core;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * A JSON Schema made from records, as plain ordered maps (core carries no JSON library; each side writes them with its
 * own mapper): a record is an object of its components, defined once under {@code $defs} and referred to; a list an
 * array, a map an object of its values, a sealed interface one of its permitted records. What a form's own conventions
 * add (an annotation that writes a component its own way, which components must be present) is its {@link Rules}'.
 * One generator for every record form that crosses a boundary: the page protocol's and the reports'.
 */
@PublicApi
public final class RecordSchema {
    /** What one family of forms adds to the generic mapping. */
    public interface Rules {
        /** {@code rc}'s schema when the form's conventions give it one of its own; empty: by its type. */
        default Optional<Map<String, Object>> special(RecordComponent rc) {
            return Optional.empty();
        }

        /** Whether {@code rc} must be present. */
        default boolean required(RecordComponent rc) {
            return false;
        }

        /** Whether {@code rc} holds the record's other properties (each a string) rather than a field of its own. */
        default boolean additional(RecordComponent rc) {
            return false;
        }

        /** Whether {@code rc}'s own components are written in its place, as the record's fields (absent when it is null). */
        default boolean unwrapped(RecordComponent rc) {
            return false;
        }

        /** The schema of a class the generic mapping has none for; empty refuses it. */
        default Optional<Map<String, Object>> other(Class<?> c) {
            return Optional.empty();
        }
    }

    private final Map<String, Object> defs;
    private final Rules rules;
    private final String owner;

    /**
     * @param defs  where each record's definition goes, in the order first met (the caller's {@code $defs})
     * @param owner who to name when a type has no form ({@code "ProtocolSchema"})
     */
    public RecordSchema(Map<String, Object> defs, Rules rules, String owner) {
        this.defs = defs;
        this.rules = rules;
        this.owner = owner;
    }

    /**
     * A whole schema document, the frame every generator shares: the dialect, its {@code title} and {@code description}, then
     * what {@code body} puts in it (given the document and the definitions it fills), the definitions last, placed after the
     * description. Each side writes the document with its own mapper.
     */
    public static Map<String, Object> document(String title, String description,
                                               java.util.function.BiConsumer<Map<String, Object>, Map<String, Object>> body) {
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        root.put("title", title);
        root.put("description", description);
        root.put("$defs", Map.of()); // its place: after the description, filled once the body has made them
        Map<String, Object> defs = new LinkedHashMap<>();
        body.accept(root, defs);
        root.put("$defs", defs);
        return root;
    }

    /**
     * A schema node of {@code keyValues} (name, value, ...) in that order: {@code Map.of} has none, and a committed schema
     * must be written the same on every run.
     */
    public static Map<String, Object> ordered(Object... keyValues) {
        Map<String, Object> n = new LinkedHashMap<>();
        for (int i = 0; i < keyValues.length; i += 2) {
            n.put((String) keyValues[i], keyValues[i + 1]);
        }
        return n;
    }

    /** {@code record} as an object: its components' schemas, the other properties' and the required ones. */
    public Map<String, Object> object(Class<?> record) {
        Map<String, Object> o = new LinkedHashMap<>();
        o.put("type", "object");
        Map<String, Object> props = new LinkedHashMap<>();
        o.put("properties", props);
        List<String> required = new ArrayList<>();
        for (RecordComponent rc : record.getRecordComponents()) {
            if (rules.additional(rc)) {
                o.put("additionalProperties", Map.of("type", "string"));
                continue;
            }
            if (rules.unwrapped(rc)) {
                @SuppressWarnings("unchecked")
                Map<String, Object> inner = (Map<String, Object>) object(rc.getType()).get("properties");
                props.putAll(inner);
                continue;
            }
            props.put(rc.getName(), rules.special(rc).orElseGet(() -> type(rc.getGenericType())));
            if (rules.required(rc)) {
                required.add(rc.getName());
            }
        }
        if (!required.isEmpty()) {
            o.put("required", required);
        }
        return o;
    }

    /** The schema of a value of type {@code t}; a record's is a reference to its definition, made on first use. */
    public Map<String, Object> type(Type t) {
        Map<String, Object> n = new LinkedHashMap<>();
        if (t instanceof ParameterizedType p) {
            Class<?> raw = (Class<?>) p.getRawType();
            if (List.class.isAssignableFrom(raw)) {
                n.put("type", "array");
                n.put("items", type(p.getActualTypeArguments()[0]));
                return n;
            }
            if (Map.class.isAssignableFrom(raw)) {
                n.put("type", "object");
                n.put("additionalProperties", type(p.getActualTypeArguments()[1]));
                return n;
            }
            if (raw == Optional.class) {
                return type(p.getActualTypeArguments()[0]);
            }
        }
        Class<?> c = (Class<?>) t;
        String simple = c == String.class ? "string" : c == int.class || c == long.class || c == Integer.class || c == Long.class
                ? "integer" : c == double.class || c == Double.class ? "number" : c == boolean.class || c == Boolean.class ? "boolean" : null;
        if (simple != null) {
            n.put("type", simple);
            return n;
        }
        if (c == long[].class || c == double[].class) {
            n.put("type", "array");
            n.put("items", Map.of("type", c == long[].class ? "integer" : "number"));
            return n;
        }
        if (c.isRecord()) {
            String name = c.getName().substring(c.getPackageName().length() + 1).replace('$', '.');
            if (!defs.containsKey(name)) {
                defs.put(name, Map.of()); // reserved first: a record that holds itself ends here
                defs.put(name, object(c));
            }
            n.put("$ref", "#/$defs/" + name);
            return n;
        }
        if (c.isSealed()) {
            List<Object> one = new ArrayList<>();
            for (Class<?> k : c.getPermittedSubclasses()) {
                one.add(type(k));
            }
            n.put("oneOf", one);
            return n;
        }
        return rules.other(c).orElseThrow(() -> new IllegalStateException(
                "no JSON form for " + t.getTypeName() + ": add one to " + owner));
    }
}
