/** The op table: the op suite's results as op × (backend, lane) verdicts, and two tables compared op by op. */
package dev.accelbridge.reports.ops;
