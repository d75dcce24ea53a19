package dev.accelbridge.reports.store;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.accelbridge.core.Outcome;

/**
 * The one place an outcome is read from which of a row's parts are present: rows and export files written before the outcome
 * was a column of its own (store migration 15, export upgrade 14 → 15). Everything written since stores its kind, made by
 * the code that knew it, and is read by that kind ({@link Outcome#read}).
 */
final class ImportedOutcome {
    /** The store's older rows: their kind as their columns held it (a backend and timings: ran, ...). */
    static final String SQL_UPDATE = """
            UPDATE results SET outcome = CASE
              WHEN actual IS NOT NULL AND iterations IS NOT NULL THEN 'RAN'
              WHEN actual IS NOT NULL THEN 'STOPPED'
              WHEN iterations IS NOT NULL THEN 'UNPLACED'
              ELSE 'NOT_RUN' END""";

    private ImportedOutcome() {
    }

    /** The kind an older export's result held, by the fields that older files wrote (as {@link #SQL_UPDATE} reads a row). */
    static Outcome.Kind of(boolean backend, boolean timed) {
        return backend ? timed ? Outcome.Kind.RAN : Outcome.Kind.STOPPED : timed ? Outcome.Kind.UNPLACED : Outcome.Kind.NOT_RUN;
    }

    /** An older export's result given the field the current one writes. */
    static void put(ObjectNode result) {
        if (!result.hasNonNull("outcome")) {
            result.put("outcome", of(text(result.path("actual")), result.path("iterations").canConvertToInt()).name());
        }
    }

    private static boolean text(JsonNode n) {
        return n.isTextual() && !n.asText().isEmpty();
    }
}
