package dev.accelbridge.bridge.cli;

import dev.accelbridge.core.RunResult;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/** The readable table printed at the end of a run. */
final class ResultTable {
    private ResultTable() {
    }

    static String render(List<RunResult> results) {
        List<String[]> rows = new ArrayList<>();
        rows.add(new String[] {"suite", "model", "browser", "requested", "actual", "status", "load ms", "first ms",
                "p50 ms", "p90 ms", "max abs err", "note"});
        for (RunResult r : results) {
            rows.add(new String[] {r.suite().id(), r.model() + r.id().dimensionsTag(), r.lane().key(), r.requested().id(),
                    r.actual() == null ? "-" : r.actual().id(), r.status().name(),
                    r.timings() == null ? "-" : fmt(r.timings().loadMs()),
                    r.timings() == null ? "-" : fmt(r.timings().firstMs()),
                    r.timings() == null ? "-" : fmt(r.timings().p50Ms()),
                    r.timings() == null ? "-" : fmt(r.timings().p90Ms()),
                    r.parity() == null ? "-" : String.format(Locale.ROOT, "%.2e", r.parity().maxAbsErr()),
                    note(r)});
        }
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                row[i] = dev.accelbridge.reports.render.Text.terminal(row[i]); // a name cannot move the cursor or recolour
            }
        }
        int[] w = new int[rows.get(0).length];
        for (String[] row : rows) {
            for (int i = 0; i < row.length; i++) {
                w[i] = Math.max(w[i], i == row.length - 1 ? 0 : row[i].length());
            }
        }
        StringBuilder sb = new StringBuilder();
        for (int k = 0; k < rows.size(); k++) {
            String[] row = rows.get(k);
            for (int i = 0; i < row.length; i++) {
                sb.append(i == row.length - 1 ? row[i] : String.format("%-" + w[i] + "s  ", row[i]));
            }
            sb.append('\n');
            if (k == 0) {
                int len = 0;
                for (int x : w) {
                    len += x + 2;
                }
                sb.append("-".repeat(len + 4)).append('\n');
            }
        }
        return sb.toString();
    }

    private static String note(RunResult r) {
        String n = r.timings() != null && r.timings().decoding() != null ? r.timings().decoding().summary() : "";
        var acc = dev.accelbridge.core.Acceleration.of(r.actual(), r.provenance());
        if (r.status().executed() && (acc == dev.accelbridge.core.Acceleration.SOFTWARE_ADAPTER
                || acc == dev.accelbridge.core.Acceleration.UNVERIFIED_DEVICE)) {
            n = n.isEmpty() ? acc.label() : n + "; " + acc.label();
        }
        if (r.reason() != null && (r.status() != dev.accelbridge.core.Status.PASSED || r.timings() != null && r.timings().decoding() != null)) {
            String reason = r.reason().length() > 110 ? r.reason().substring(0, 107) + "..." : r.reason();
            n = n.isEmpty() ? reason : n + "; " + reason;
        }
        return n;
    }

    private static String fmt(double v) {
        if (Double.isNaN(v)) {
            return "-";
        }
        return dev.accelbridge.core.Timings.formatMs(v);
    }
}
