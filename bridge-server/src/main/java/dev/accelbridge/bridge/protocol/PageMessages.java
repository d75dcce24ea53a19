package dev.accelbridge.bridge.protocol;

import dev.accelbridge.core.PublicApi;
import dev.accelbridge.core.Untrusted;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JavaType;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.cfg.CoercionAction;
import com.fasterxml.jackson.databind.cfg.CoercionInputShape;
import com.fasterxml.jackson.databind.type.LogicalType;
import com.fasterxml.jackson.databind.deser.DeserializationProblemHandler;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The page protocol's messages in JSON, both ways, by Jackson. Out: a {@link ToPage} under the envelope every message
 * carries (the protocol version {@code v}, the kind as {@code type}, the {@code job} it belongs to; a welcome has none, an
 * error a null one when it answers no job), then the record's fields, a null one left out. In: a page's message as its
 * {@link FromPage} record, every field that is missing or of another type read as null (the page is another program;
 * what a reader takes it bounds and checks). With {@code -Daccelbridge.protocol.strict=true} (the tests run so) a field
 * the record does not declare is refused by name, which is how the tests hold the page to the records.
 */
@PublicApi
public final class PageMessages {
    private static final ObjectMapper JSON = JsonMapper.builder()
            .serializationInclusion(JsonInclude.Include.NON_NULL)
            .build();

    /** Whether a field no record declares is refused (the tests), rather than passed over (a newer page). */
    static final boolean STRICT = Boolean.getBoolean("accelbridge.protocol.strict");

    private static final ObjectMapper IN = reader(STRICT);

    private PageMessages() {
    }

    static ObjectMapper reader(boolean strict) {
        return JsonMapper.builder()
                .configure(DeserializationFeature.FAIL_ON_UNKNOWN_PROPERTIES, strict)
                .configure(DeserializationFeature.ACCEPT_FLOAT_AS_INT, false)
                .configure(DeserializationFeature.FAIL_ON_NULL_FOR_PRIMITIVES, false)
                .addHandler(new UnknownAsNull())
                // a value of another JSON type is unknown, never converted: "5" is not a count, 2.5 not a whole one, 7 not a name
                .withCoercionConfig(LogicalType.Integer, c -> c.setCoercion(CoercionInputShape.Float, CoercionAction.AsNull)
                        .setCoercion(CoercionInputShape.String, CoercionAction.AsNull).setCoercion(CoercionInputShape.Boolean, CoercionAction.AsNull))
                .withCoercionConfig(LogicalType.Float, c -> c.setCoercion(CoercionInputShape.String, CoercionAction.AsNull)
                        .setCoercion(CoercionInputShape.Boolean, CoercionAction.AsNull))
                .withCoercionConfig(LogicalType.Boolean, c -> c.setCoercion(CoercionInputShape.String, CoercionAction.AsNull)
                        .setCoercion(CoercionInputShape.Integer, CoercionAction.AsNull))
                .withCoercionConfig(LogicalType.Textual, c -> c.setCoercion(CoercionInputShape.Integer, CoercionAction.AsNull)
                        .setCoercion(CoercionInputShape.Float, CoercionAction.AsNull).setCoercion(CoercionInputShape.Boolean, CoercionAction.AsNull))
                .build();
    }

    /**
     * A page's message (its envelope included) as {@code type}'s record.
     *
     * @throws PageProtocolException {@code undeclared-field} naming a field the record does not declare (strict reading
     *                               only), or {@code bad-message} when it is not an object
     */
    public static <T extends FromPage> T read(JsonNode message, Class<T> type) {
        return read(IN, message, type);
    }

    static <T extends FromPage> T read(ObjectMapper mapper, JsonNode message, Class<T> type) {
        if (message == null || !message.isObject()) {
            throw new PageProtocolException("bad-message", "a page's " + type.getSimpleName() + " is not a JSON object");
        }
        ObjectNode fields = ((ObjectNode) message).deepCopy();
        fields.remove(ENVELOPE);
        try {
            return mapper.treeToValue(fields, type);
        } catch (com.fasterxml.jackson.databind.exc.UnrecognizedPropertyException e) {
            String where = e.getPath().stream().map(r -> r.getFieldName() == null ? "[" + r.getIndex() + "]" : "." + r.getFieldName())
                    .collect(java.util.stream.Collectors.joining());
            throw new PageProtocolException("undeclared-field", "the page sent " + type.getSimpleName()
                    + Untrusted.bounded(where, 200) + ", which the protocol's records do not declare");
        } catch (JsonProcessingException e) {
            throw new PageProtocolException("bad-message", "a page's " + type.getSimpleName() + " could not be read: "
                    + Untrusted.bounded(e.getOriginalMessage(), 300));
        }
    }

    /** A part of a page's message (a field's value) as {@code type}, read as {@link #read} reads a message. */
    public static <T> T readPart(JsonNode part, com.fasterxml.jackson.core.type.TypeReference<T> type) {
        try {
            return IN.treeToValue(part, IN.getTypeFactory().constructType(type));
        } catch (JsonProcessingException e) {
            throw new PageProtocolException("bad-message", "a part of a page's message could not be read: "
                    + Untrusted.bounded(e.getOriginalMessage(), 300));
        }
    }

    /** The envelope's fields, read before a message's own. */
    static final java.util.List<String> ENVELOPE = java.util.List.of("v", "type", "job");

    /** A value of another type than its field's reads as null (unknown), never as an error or a made-up 0. */
    private static final class UnknownAsNull extends DeserializationProblemHandler {
        @Override
        public Object handleWeirdStringValue(DeserializationContext ctx, Class<?> target, String value, String msg) {
            return null;
        }

        @Override
        public Object handleWeirdNumberValue(DeserializationContext ctx, Class<?> target, Number value, String msg) {
            return null;
        }

        @Override
        public Object handleUnexpectedToken(DeserializationContext ctx, JavaType target, JsonToken t, JsonParser p, String msg)
                throws java.io.IOException {
            p.skipChildren();
            return null;
        }
    }

    /** {@code message} under its envelope, as a JSON object (a binary frame's header, or a text frame's whole). */
    public static ObjectNode envelope(ToPage message, String job) {
        ObjectNode n = JSON.createObjectNode().put("v", FrameCodec.PROTOCOL_VERSION).put("type", message.kind().id());
        if (!(message instanceof ToPage.Welcome)) {
            n.put("job", job);
        }
        n.setAll((ObjectNode) JSON.valueToTree(message));
        return n;
    }

    /** {@code message} under its envelope, as a text frame's JSON. */
    public static String text(ToPage message, String job) {
        return envelope(message, job).toString();
    }
}
