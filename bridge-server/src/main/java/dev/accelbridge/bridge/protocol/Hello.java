package dev.accelbridge.bridge.protocol;

import dev.accelbridge.core.PublicApi;

import com.fasterxml.jackson.databind.annotation.JsonDeserialize;

/**
 * A page joining: the slot its launcher gave it (none when opened by hand), its browser's probe, and the onnxruntime-web
 * release that loaded or why none did.
 *
 * @param slot  the launcher's slot, or null
 * @param probe what the browser offers, with its evidence
 * @param ort   the release that loaded
 */
@PublicApi
public record Hello(String slot, @JsonDeserialize(using = ProbeReader.class) PageProbe probe, Ort ort) implements FromPage {
    @Override
    public MessageKind kind() {
        return MessageKind.HELLO;
    }

    /** The onnxruntime-web the page imported: its version, or the error that stopped it. */
    public record Ort(String version, String error) {
    }
}
