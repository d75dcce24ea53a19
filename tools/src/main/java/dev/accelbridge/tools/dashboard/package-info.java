/**
 * The live dashboard: the JSON API over the matrix store ({@link dev.accelbridge.tools.dashboard.DashboardApi}), the
 * live feed of runs in progress ({@link dev.accelbridge.tools.dashboard.LiveFeed}), runs started from the page
 * ({@link dev.accelbridge.tools.dashboard.RunLauncher}), and the routes that serve them with the page
 * ({@link dev.accelbridge.tools.dashboard.DashboardRoutes}). docs/dashboard.md documents the API.
 */
package dev.accelbridge.tools.dashboard;
