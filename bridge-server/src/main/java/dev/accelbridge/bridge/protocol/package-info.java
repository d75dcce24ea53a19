/**
 * The page protocol between the bridge and the inference page: the message kinds and which answers which
 * ({@link dev.accelbridge.bridge.protocol.MessageKind}), the binary frame envelope that carries tensors
 * ({@link dev.accelbridge.bridge.protocol.FrameCodec}), the capability probe a page sends when it joins
 * ({@link dev.accelbridge.bridge.protocol.PageProbe}, mapped to core {@link dev.accelbridge.core.Availability} with the
 * browser's own evidence) and the error a malformed message raises. The page's side is checked against it by
 * browser-runtime's mirror tests.
 */
package dev.accelbridge.bridge.protocol;
