/**
 * The browser bridge's server: a Javalin server ({@link dev.accelbridge.browser.bridge.BridgeServer}) that serves the
 * inference page with COOP/COEP headers, the models of the current run by opaque id and onnxruntime-web's verified files,
 * and the WebSocket endpoint over which pages join and execute jobs (protocol v1, {@code docs/protocol.md}); its options,
 * its network exposure (TLS identity, token, host and origin checks, join codes). The joined pages are the page hub's
 * ({@code hub}); turning one browser into a backend provider is {@code provider}'s.
 */
package dev.accelbridge.browser.bridge;
