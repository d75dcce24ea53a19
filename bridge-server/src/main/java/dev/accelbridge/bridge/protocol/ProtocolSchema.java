package dev.accelbridge.bridge.protocol;

import dev.accelbridge.core.PublicApi;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.lang.reflect.ParameterizedType;
import java.lang.reflect.RecordComponent;
import java.lang.reflect.Type;
import java.util.Arrays;
import java.util.Comparator;
import java.util.List;
import java.util.Map;

/**
 * The page protocol as one JSON Schema, generated from its records: the envelope, one definition per message kind in
 * each direction ({@link ToPage}'s and {@link FromPage}'s permitted records) and one per record they hold. The committed
 * copy ({@code page-protocol.schema.json} beside these classes) is what the page's side is checked against; a test holds
 * it to the records, so the schema, the Java records and the page cannot drift apart unnoticed.
 */
@PublicApi
public final class ProtocolSchema {
    /** Where the committed schema is on the classpath. */
    public static final String RESOURCE = "dev/accelbridge/bridge/protocol/page-protocol.schema.json";

    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private ProtocolSchema() {
    }

    /** The schema, generated from the records now. */
    public static ObjectNode generate() {
        ObjectNode root = JSON.createObjectNode();
        root.put("$schema", "https://json-schema.org/draft/2020-12/schema");
        root.put("title", "Accelbridge page protocol v" + FrameCodec.PROTOCOL_VERSION);
        root.put("description", "Generated from dev.accelbridge.bridge.protocol's records (ProtocolSchema); docs/protocol.md "
                + "says what each field means. Every message carries the envelope; a message's own fields sit beside it.");
        ObjectNode defs = root.putObject("$defs");
        ObjectNode env = defs.putObject("envelope").put("type", "object");
        env.putObject("properties").<ObjectNode>set("v", JSON.createObjectNode().put("const", FrameCodec.PROTOCOL_VERSION))
                .<ObjectNode>set("type", JSON.createObjectNode().put("type", "string"))
                .set("job", JSON.createObjectNode().set("type", JSON.createArrayNode().add("string").add("null")));
        env.putArray("required").add("v").add("type");
        ObjectNode toPage = root.putObject("toPage");
        for (Class<?> c : sorted(ToPage.class.getPermittedSubclasses())) {
            toPage.set(kindOf(c).id(), message(c, defs, true));
        }
        ObjectNode fromPage = root.putObject("fromPage");
        for (Class<?> c : sorted(FromPage.class.getPermittedSubclasses())) {
            fromPage.set(kindOf(c).id(), message(c, defs, false));
        }
        return root;
    }

    /** The schema as the committed file holds it. */
    public static String text() {
        try {
            return JSON.writeValueAsString(generate()) + "\n";
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** A message kind: the envelope and its record's fields; the bridge's own always carries its primitives. */
    private static ObjectNode message(Class<?> record, ObjectNode defs, boolean sent) {
        ObjectNode m = JSON.createObjectNode();
        m.put("title", record.getSimpleName());
        ArrayNode all = m.putArray("allOf");
        all.addObject().put("$ref", "#/$defs/envelope");
        all.add(object(record, defs, sent));
        return m;
    }

    private static ObjectNode object(Class<?> record, ObjectNode defs, boolean sent) {
        ObjectNode o = JSON.createObjectNode().put("type", "object");
        ObjectNode props = o.putObject("properties");
        ArrayNode required = JSON.createArrayNode();
        for (RecordComponent rc : record.getRecordComponents()) {
            if (rc.getAccessor().isAnnotationPresent(JsonAnyGetter.class) || rc.isAnnotationPresent(JsonAnyGetter.class)) {
                o.set("additionalProperties", JSON.createObjectNode().put("type", "string"));
                continue;
            }
            props.set(rc.getName(), type(rc.getGenericType(), rc, defs, sent));
            if (sent && rc.getType().isPrimitive()) {
                required.add(rc.getName());
            }
        }
        if (!required.isEmpty()) {
            o.set("required", required);
        }
        return o;
    }

    private static ObjectNode type(Type t, RecordComponent rc, ObjectNode defs, boolean sent) {
        ObjectNode n = JSON.createObjectNode();
        if (rc != null && rc.isAnnotationPresent(JsonDeserialize.class)) {
            return n.put("type", "object").put("description", "read by " + ((Class<?>) t).getSimpleName() + ".parse, which bounds it");
        }
        if (t instanceof ParameterizedType p) {
            Class<?> raw = (Class<?>) p.getRawType();
            if (List.class.isAssignableFrom(raw)) {
                return n.put("type", "array").set("items", type(p.getActualTypeArguments()[0], null, defs, sent));
            }
            if (Map.class.isAssignableFrom(raw)) {
                return n.put("type", "object").set("additionalProperties", type(p.getActualTypeArguments()[1], null, defs, sent));
            }
        }
        Class<?> c = (Class<?>) t;
        if (c == String.class) {
            return n.put("type", "string");
        }
        if (c == int.class || c == long.class || c == Integer.class || c == Long.class) {
            return n.put("type", "integer");
        }
        if (c == double.class || c == Double.class) {
            return n.put("type", "number");
        }
        if (c == boolean.class || c == Boolean.class) {
            return n.put("type", "boolean");
        }
        if (c == long[].class) {
            return n.put("type", "array").set("items", JSON.createObjectNode().put("type", "integer"));
        }
        if (c.isRecord()) {
            String name = c.getName().substring(c.getPackageName().length() + 1).replace('$', '.');
            if (!defs.has(name)) {
                defs.putObject(name); // reserved first: a record that holds itself ends here
                defs.set(name, object(c, defs, sent));
            }
            return n.put("$ref", "#/$defs/" + name);
        }
        throw new IllegalStateException("the page protocol has no JSON form for " + t.getTypeName() + ": add one to ProtocolSchema");
    }

    private static MessageKind kindOf(Class<?> record) {
        try {
            var ctor = record.getDeclaredConstructors()[0];
            Object[] args = Arrays.stream(ctor.getParameterTypes()).map(ProtocolSchema::zero).toArray();
            ctor.setAccessible(true);
            Object v = ctor.newInstance(args);
            return v instanceof ToPage tp ? tp.kind() : ((FromPage) v).kind();
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot tell " + record.getName() + "'s kind", e);
        }
    }

    private static Object zero(Class<?> p) {
        if (p == int.class) {
            return 0;
        }
        if (p == long.class) {
            return 0L;
        }
        if (p == double.class) {
            return 0d;
        }
        if (p == boolean.class) {
            return false;
        }
        if (List.class.isAssignableFrom(p)) {
            return List.of();
        }
        if (Map.class.isAssignableFrom(p)) {
            return Map.of();
        }
        return null;
    }

    private static Class<?>[] sorted(Class<?>[] cs) {
        Class<?>[] out = cs.clone();
        Arrays.sort(out, Comparator.comparing(Class::getName));
        return out;
    }
}
