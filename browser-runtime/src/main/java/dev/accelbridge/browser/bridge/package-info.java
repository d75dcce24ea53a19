/**
 * The browser bridge: a Javalin server ({@link dev.accelbridge.browser.bridge.BridgeServer}) that serves the inference
 * page with COOP/COEP headers, the models of the current run by opaque id, and the WebSocket endpoint over which pages
 * join and execute jobs (protocol v1, {@code docs/protocol.md}); {@link dev.accelbridge.browser.bridge.ConnectedPage}
 * is one joined page with a future-based job API, and {@link dev.accelbridge.browser.bridge.BrowserBackendProvider}
 * turns one browser into a core {@link dev.accelbridge.core.BackendProvider} for WebGPU, WebNN and WASM.
 */
package dev.accelbridge.browser.bridge;
