package dev.accelbridge.bridge.protocol;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.deser.std.StdDeserializer;

import java.io.IOException;

/** Reads a page's probe with {@link PageProbe#parse}, which bounds and checks every value the browser gave. */
final class ProbeReader extends StdDeserializer<PageProbe> {
    ProbeReader() {
        super(PageProbe.class);
    }

    @Override
    public PageProbe deserialize(JsonParser p, DeserializationContext ctx) throws IOException {
        JsonNode n = p.readValueAsTree();
        return PageProbe.parse(n);
    }

    @Override
    public PageProbe getNullValue(DeserializationContext ctx) {
        return PageProbe.parse(com.fasterxml.jackson.databind.node.MissingNode.getInstance());
    }
}
