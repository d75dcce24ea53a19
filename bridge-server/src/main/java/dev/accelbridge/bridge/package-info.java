/**
 * The bridge's server: a Javalin server ({@link dev.accelbridge.bridge.BridgeServer}) that serves the inference page
 * ({@link dev.accelbridge.bridge.ServedPage}) with COOP/COEP headers, the models of the current run by opaque id and
 * onnxruntime-web's verified files ({@link dev.accelbridge.bridge.ServedOrtWeb}), and the WebSocket endpoint over which
 * pages join and execute jobs ({@code docs/protocol.md}); its options and its network exposure (TLS identity, token,
 * host and origin checks, join codes). The joined pages are the page hub's ({@code hub}); what travels is the page
 * protocol's ({@code protocol}). Launching a browser and turning it into a backend is browser-runtime's.
 */
package dev.accelbridge.bridge;
