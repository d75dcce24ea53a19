/**
 * The page hub: the pages that joined the bridge over WebSocket ({@link dev.accelbridge.bridge.hub.ConnectedPage}),
 * their admission and join slots, the jobs sent to each (load, run, profile, release) with their messages and replies,
 * and the outcomes those replies are assembled into. It knows pages and jobs, not backends or cases.
 */
package dev.accelbridge.bridge.hub;
