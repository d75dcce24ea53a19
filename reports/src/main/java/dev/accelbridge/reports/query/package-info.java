/**
 * Which results a view shows: the filters the dashboard's pages, its JSON API and its tests share
 * ({@link dev.accelbridge.reports.query.CaseFilter}).
 */
package dev.accelbridge.reports.query;
