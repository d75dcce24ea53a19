package dev.accelbridge.bridge.protocol;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.RecordSchema;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.annotation.JsonDeserialize;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.lang.reflect.RecordComponent;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
        return JSON.valueToTree(RecordSchema.document("Accelbridge page protocol v" + FrameCodec.PROTOCOL_VERSION,
                "Generated from dev.accelbridge.bridge.protocol's records (ProtocolSchema); docs/protocol.md says what each field "
                        + "means. Every message carries the envelope; a message's own fields sit beside it.", (root, defs) -> {
                    ObjectNode env = JSON.createObjectNode().put("type", "object");
                    env.putObject("properties").<ObjectNode>set("v", JSON.createObjectNode().put("const", FrameCodec.PROTOCOL_VERSION))
                            .<ObjectNode>set("type", JSON.createObjectNode().put("type", "string"))
                            .set("job", JSON.createObjectNode().set("type", JSON.createArrayNode().add("string").add("null")));
                    env.putArray("required").add("v").add("type");
                    defs.put("envelope", env);
                    ObjectNode toPage = JSON.createObjectNode();
                    for (Class<?> c : sorted(ToPage.class.getPermittedSubclasses())) {
                        toPage.set(kindOf(c).id(), message(c, defs, true));
                    }
                    root.put("toPage", toPage);
                    ObjectNode fromPage = JSON.createObjectNode();
                    for (Class<?> c : sorted(FromPage.class.getPermittedSubclasses())) {
                        fromPage.set(kindOf(c).id(), message(c, defs, false));
                    }
                    root.put("fromPage", fromPage);
                }));
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
    private static ObjectNode message(Class<?> record, Map<String, Object> defs, boolean sent) {
        ObjectNode m = JSON.createObjectNode();
        m.put("title", record.getSimpleName());
        ArrayNode all = m.putArray("allOf");
        all.addObject().put("$ref", "#/$defs/envelope");
        all.add(JSON.<ObjectNode>valueToTree(new RecordSchema(defs, new Rules(sent), "ProtocolSchema").object(record)));
        return m;
    }

    /**
     * The protocol's rules: a value read by its own parser, a provider's options beside its name; the bridge's own messages
     * always carry their primitives, while what the page must send is said by the reading, not by the schema.
     */
    private record Rules(boolean sent) implements RecordSchema.Rules {
        @Override
        public Optional<Map<String, Object>> special(RecordComponent rc) {
            return ProtocolSchema.special(rc);
        }

        @Override
        public boolean additional(RecordComponent rc) {
            return ProtocolSchema.additional(rc);
        }

        @Override
        public boolean required(RecordComponent rc) {
            return sent && rc.getType().isPrimitive();
        }
    }

    /** A provider's own options sit beside its name ({@link JsonAnyGetter}). */
    private static boolean additional(RecordComponent rc) {
        return rc.getAccessor().isAnnotationPresent(JsonAnyGetter.class) || rc.isAnnotationPresent(JsonAnyGetter.class);
    }

    /** A value read by its own bounded parser ({@link JsonDeserialize}) is an object that parser holds. */
    private static Optional<Map<String, Object>> special(RecordComponent rc) {
        if (!rc.isAnnotationPresent(JsonDeserialize.class)) {
            return Optional.empty();
        }
        Map<String, Object> n = new LinkedHashMap<>();
        n.put("type", "object");
        n.put("description", "read by " + rc.getType().getSimpleName() + ".parse, which bounds it");
        return Optional.of(n);
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
