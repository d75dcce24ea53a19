/**
 * The live dashboard: the JSON API over the matrix store ({@link dev.accelbridge.bridge.dashboard.DashboardApi}), the
 * live feed of runs in progress ({@link dev.accelbridge.bridge.dashboard.LiveFeed}), runs started from the page
 * ({@link dev.accelbridge.bridge.dashboard.RunLauncher}), and the routes that serve them with the page
 * ({@link dev.accelbridge.bridge.dashboard.DashboardRoutes}). docs/dashboard.md documents the API.
 */
package dev.accelbridge.bridge.dashboard;
